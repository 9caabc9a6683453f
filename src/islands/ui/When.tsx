// A moment in a dashboard screen: a <time> with its machine-readable value, the day (or the day and
// time) as text, and the full local date and time on hover.
import { formatDay, formatDayTime } from '../../lib/dates';

export function When({ at, withTime = false, className }: { at: string; withTime?: boolean; className?: string }) {
  const date = new Date(at);
  return (
    <time dateTime={at} title={date.toLocaleString()} className={className}>
      {withTime ? formatDayTime(date) : formatDay(date)}
    </time>
  );
}
