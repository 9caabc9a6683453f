// Dates as the site shows them: fixed locale and UTC, so a build anywhere renders the same text.
const long = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

export const formatDate = (date: Date): string => long.format(date);
export const isoDate = (date: Date): string => date.toISOString().slice(0, 10);
