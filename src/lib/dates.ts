// Dates as the site shows them: fixed locale and UTC, so a build anywhere renders the same text.

/**
 * An en-US date format made on its first use, not when the module loads: a server that never shows one of
 * these dates then never maps ICU's date data (several MiB of the node binary resident, before-after.md).
 */
export function dateFormat(options: Intl.DateTimeFormatOptions): (date: Date) => string {
  let format: Intl.DateTimeFormat | undefined;
  return (date) => (format ??= new Intl.DateTimeFormat('en-US', options)).format(date);
}

export const formatDate = dateFormat({ dateStyle: 'long', timeZone: 'UTC' });
export const isoDate = (date: Date): string => date.toISOString().slice(0, 10);

// The dashboard's dates: rendered in the browser, so in the viewer's own time zone.
/** "Nov 25, 2026" in the viewer's time zone. */
export const formatDay = dateFormat({ dateStyle: 'medium' });
/** "Nov 25, 2026, 11:44 AM" in the viewer's time zone. */
export const formatDayTime = dateFormat({ dateStyle: 'medium', timeStyle: 'short' });
