// Dates as the site shows them: fixed locale and UTC, so a build anywhere renders the same text.
const long = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

export const formatDate = (date: Date): string => long.format(date);
export const isoDate = (date: Date): string => date.toISOString().slice(0, 10);

// The dashboard's dates: rendered in the browser, so in the viewer's own time zone.
const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const dayTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** "Nov 25, 2026" in the viewer's time zone. */
export const formatDay = (date: Date): string => day.format(date);
/** "Nov 25, 2026, 11:44 AM" in the viewer's time zone. */
export const formatDayTime = (date: Date): string => dayTime.format(date);
