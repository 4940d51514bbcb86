/**
 * Calendar and clock helpers. Dates are plain `YYYY-MM-DD` strings and times `HH:MM` strings;
 * all arithmetic runs in UTC so a scenario reads the same in every time zone.
 */

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^(\d{2}):(\d{2})$/;

function utc(date: string): Date {
  const m = DATE_RE.exec(date);
  if (!m) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
}

/** True for a real calendar date written `YYYY-MM-DD` (rejects `2026-02-30`). */
export function isIsoDate(value: string): boolean {
  if (!DATE_RE.test(value)) return false;
  return utc(value).toISOString().slice(0, 10) === value;
}

/** True for a clock time `HH:MM` from 00:00 to 23:59. */
export function isClockTime(value: string): boolean {
  const m = TIME_RE.exec(value);
  return m !== null && Number(m[1]) < 24 && Number(m[2]) < 60;
}

/**
 * Minutes since midnight of `HH:MM`. Hours up to 47 are accepted so a story can say "25:00"
 * for 1 am after the showing's day.
 */
export function minutesOf(time: string): number {
  const m = TIME_RE.exec(time);
  if (!m || Number(m[1]) > 47 || Number(m[2]) > 59) throw new RangeError(`not an HH:MM time: ${JSON.stringify(time)}`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/** `HH:MM` on a 24-hour clock; minutes past midnight wrap to the next day's clock. */
export function clockOf(minutes: number): string {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** The date `days` after `date` (negative goes back). */
export function addDays(date: string, days: number): string {
  const d = utc(date);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to`. */
export function daysBetween(from: string, to: string): number {
  return Math.round((utc(to).getTime() - utc(from).getTime()) / 86_400_000);
}

/** The weekday's English name, e.g. `Saturday`. */
export function weekdayOf(date: string): string {
  return WEEKDAYS[utc(date).getUTCDay()] ?? '';
}

/** A short label such as `Sat 21 Nov`. */
export function shortDateLabel(date: string): string {
  const d = utc(date);
  return `${weekdayOf(date).slice(0, 3)} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()] ?? ''}`;
}
