/*
 * Pure formatting for the participant's page: durations, dates, money, and the plain-language
 * descriptions of what a filter or a sort does. Dates are `YYYY-MM-DD` and read in UTC, as the
 * booking engine writes them, so a participant's time zone never shifts a day.
 */

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** `148` → `2 h 28 min`; `120` → `2 h`; `45` → `45 min`. */
export function formatDuration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = Math.round(minutes % 60);
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** The parts of a `YYYY-MM-DD` date, or null when it is not one. */
export function dateParts(iso: string): { weekday: string; day: number; month: string; year: number } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return {
    weekday: WEEKDAYS[date.getUTCDay()] ?? '',
    day: date.getUTCDate(),
    month: MONTHS[date.getUTCMonth()] ?? '',
    year: date.getUTCFullYear(),
  };
}

/** `2026-11-21` → `Sat 21 Nov`. */
export function formatDateShort(iso: string): string {
  const p = dateParts(iso);
  return p ? `${p.weekday.slice(0, 3)} ${p.day} ${p.month.slice(0, 3)}` : iso;
}

/** `2026-11-21` → `Saturday 21 November 2026`. */
export function formatDateLong(iso: string): string {
  const p = dateParts(iso);
  return p ? `${p.weekday} ${p.day} ${p.month} ${p.year}` : iso;
}

/** Minutes after midnight → `HH:MM` (wrapping past midnight). */
export function formatClock(minutes: number): string {
  const m = ((Math.round(minutes) % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** True when a showing that starts at `start` ends on the next day (`22:40`–`01:08`). */
export function endsNextDay(start: string, end: string): boolean {
  return end < start;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** `19.5, 'USD'` → `$19.50`. An unknown currency code is written before the amount. */
export function formatMoney(amount: number, currency = 'USD'): string {
  let format = moneyFormats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    } catch {
      return `${currency} ${amount.toFixed(2)}`;
    }
    moneyFormats.set(currency, format);
  }
  return format.format(amount);
}

/** `1, 'movie'` → `1 movie`; `4, 'movie'` → `4 movies`. */
export function plural(count: number, noun: string): string {
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
}

/** `HH:MM` time of an ISO timestamp in the participant's clock, for chat and frame lists. */
export function formatTimeOfDay(iso: string, seconds = false): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const hh = String(date.getHours()).padStart(2, '0');
  const mm = String(date.getMinutes()).padStart(2, '0');
  if (!seconds) return `${hh}:${mm}`;
  const ss = String(date.getSeconds()).padStart(2, '0');
  return `${hh}:${mm}:${ss}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

/**
 * A refused action's message as a sentence for the participant: without the tool prefix and the
 * list of tools an agent could call instead.
 */
export function humanizeRefusal(message: string): string {
  let text = message.split('; available now:')[0] ?? message;
  text = text.replace(/^[a-z][A-Za-z]*: /, '').trim();
  if (text === '') return 'That action is not possible right now.';
  text = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
