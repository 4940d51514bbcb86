import type { Item } from '@usher/protocol';

/*
 * Reading what a stage shows: item fields (typed loosely on the wire), clock times and dates.
 * Times are minutes from the showing day's midnight, so 1:08 am after a late show is 1508.
 */

/** A string field, or '' when the item lacks it. */
export function text(item: Item, key: string): string {
  const value = item[key];
  return typeof value === 'string' ? value : '';
}

/** A number field, or NaN when the item lacks it (NaN fails every comparison, so a missing field never passes). */
export function num(item: Item, key: string): number {
  const value = item[key];
  return typeof value === 'number' ? value : Number.NaN;
}

/** A list field, or [] when the item lacks it. */
export function list(item: Item, key: string): string[] {
  const value = item[key];
  return Array.isArray(value) ? value : [];
}

/** Minutes of `HH:MM`; hours up to 47 ("25:00" is 1 am after the showing's day, as in constraints). */
export function minutesOf(time: string): number {
  const m = /^(\d{1,2}):(\d{2})$/.exec(time);
  return m ? Number(m[1]) * 60 + Number(m[2]) : Number.NaN;
}

/** `HH:MM` on a 24-hour clock, marked when it falls on the day after the showing's. */
export function clockOf(minutes: number): string {
  const m = ((minutes % 1440) + 1440) % 1440;
  const clock = `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return minutes >= 1440 ? `${clock} (next day)` : clock;
}

/**
 * The end of a showing in minutes from its day's midnight. Stages show the end as a wall clock
 * (`01:08` after a 22:40 start), so an end earlier than the start is on the next day.
 */
export function endMinutesOf(startMinutes: number, endClock: string): number {
  const end = minutesOf(endClock);
  return end < startMinutes ? end + 1440 : end;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Sun 22 Nov` for `2026-11-22`, as the host labels days; the input itself when it is not a date. */
export function dateLabel(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return date;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

/** An amount with two decimals and the currency, e.g. `39.00 USD`. */
export function money(amount: number, currency: string | undefined): string {
  return `${amount.toFixed(2)}${currency ? ` ${currency}` : ''}`;
}

/** `a`, `a or b`, `a, b or c`. */
export function orList(items: readonly string[], word = 'or'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${word} ${items.at(-1)}`;
}

/** The first `max` entries, with `…` when there were more. */
export function some(items: readonly string[], max = 6): string {
  return items.length > max ? `${items.slice(0, max).join(', ')}, …` : items.join(', ');
}
