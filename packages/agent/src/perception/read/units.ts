/*
 * The conversions behind reading a host's records by meaning (records.ts): every unit the agent's
 * model does not use is converted here, once, explicitly. The model's units: distances in km,
 * ratings out of 10, durations in minutes, clock times as `HH:MM` (hours up to 47 past the
 * showing's midnight), seat rows as capital letters (row 1 = A).
 */

export const KM_PER_MILE = 1.609344;

const round1 = (n: number) => Math.round(n * 10) / 10;

/** A finite number from a number or a numeric string ("4.2", " 12 "), else NaN. */
export function numberFrom(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? value : Number.NaN;
  if (typeof value !== 'string' || !/^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number.NaN;
  return Number(value);
}

/** Miles to km, to a tenth (the precision the agent's model and its wishes use). */
export function kmFromMiles(miles: number): number {
  return round1(miles * KM_PER_MILE);
}

/** A distance written with its unit ("2.3 mi", "4 km", "800 m"), in km; NaN when it is not one. */
export function kmFromText(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(km|kilomet(?:er|re)s?|mi|miles?|m|met(?:er|re)s?)\s*$/i.exec(text);
  if (!m) return Number.NaN;
  const n = Number(m[1]);
  const unit = (m[2] ?? '').toLowerCase();
  if (unit.startsWith('mi')) return kmFromMiles(n);
  if (unit === 'm' || unit.startsWith('met')) return round1(n / 1000);
  return n;
}

/**
 * A rating on the model's 10-point scale. `value` may say its scale ("4.2/5", "84%"); otherwise
 * `scale` (what the host or its items say, or what the stage's ratings imply) is used.
 */
export function ratingOutOf10(value: unknown, scale: number): number {
  if (typeof value === 'string') {
    const out = /^\s*(\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)\s*$/.exec(value);
    if (out) return convertRating(Number(out[1]), Number(out[2]));
    const percent = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(value);
    if (percent) return convertRating(Number(percent[1]), 100);
  }
  const n = numberFrom(value);
  return Number.isNaN(n) ? Number.NaN : convertRating(n, scale);
}

function convertRating(n: number, scale: number): number {
  if (!(scale > 0) || n < 0 || n > scale) return Number.NaN;
  return round1((n * 10) / scale);
}

/**
 * The scale a stage's plain ratings are on when nothing says it: 5 when none is above 5 (stars),
 * 100 when some is above 10 (percent), else 10.
 */
export function impliedRatingScale(ratings: readonly number[]): number {
  const known = ratings.filter((n) => Number.isFinite(n));
  if (known.length === 0) return 10;
  const most = Math.max(...known);
  return most <= 5 ? 5 : most > 10 ? 100 : 10;
}

/** A duration in minutes from a number of minutes, "105", "105 min", "1h 45m", "1:45" or ISO "PT1H45M"; NaN otherwise. */
export function minutesFromDuration(value: unknown): number {
  const n = numberFrom(value);
  if (!Number.isNaN(n)) return n >= 0 ? n : Number.NaN;
  if (typeof value !== 'string') return Number.NaN;
  const t = value.trim().toLowerCase();
  const minutesOnly = /^(\d+)\s*(?:m|min|mins|minutes?)$/.exec(t);
  if (minutesOnly) return Number(minutesOnly[1]);
  const hm = /^(?:pt)?(\d+)\s*(?:h|hr|hrs|hours?)\s*(?:(\d+)\s*(?:m|min|mins|minutes?)?)?$/.exec(t);
  if (hm) return Number(hm[1]) * 60 + Number(hm[2] ?? 0);
  const clock = /^(\d+):(\d{2})$/.exec(t);
  return clock ? Number(clock[1]) * 60 + Number(clock[2]) : Number.NaN;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A clock time as `HH:MM` from "19:30", "7:30 PM", "7pm", or an ISO date-time's local part
 * ("2026-11-21T19:30:00"); undefined when it is none of these.
 */
export function clockFrom(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const t = value.trim();
  const iso = /^\d{4}-\d{2}-\d{2}[T ](\d{2}):(\d{2})/.exec(t);
  if (iso) return `${iso[1]}:${iso[2]}`;
  const m = /^(\d{1,2})(?:[:.](\d{2}))?\s*([ap])\.?m\.?$/i.exec(t);
  if (m) {
    const h = Number(m[1]);
    if (h < 1 || h > 12) return undefined;
    const pm = (m[3] ?? '').toLowerCase() === 'p';
    return `${pad((h % 12) + (pm ? 12 : 0))}:${m[2] ?? '00'}`;
  }
  const plain = /^(\d{1,2}):(\d{2})$/.exec(t);
  return plain && Number(plain[1]) < 48 ? `${pad(Number(plain[1]))}:${plain[2]}` : undefined;
}

/** The wall clock `minutes` after `start` (`HH:MM`): what a host leaves out when it gives no end time. */
export function endClockAfter(start: string, minutes: number): string | undefined {
  const m = /^(\d{1,2}):(\d{2})$/.exec(start);
  if (!m || !Number.isFinite(minutes) || minutes < 0) return undefined;
  const total = (Number(m[1]) * 60 + Number(m[2]) + Math.round(minutes)) % 1440;
  return `${pad(Math.floor(total / 60))}:${pad(total % 60)}`;
}

/** An ISO day (`YYYY-MM-DD`) from a day or a date-time string, or from epoch milliseconds (UTC). */
export function isoDayFrom(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? undefined : d.toISOString().slice(0, 10);
  }
  if (typeof value !== 'string') return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})(?:$|[T ])/.exec(value.trim());
  return m?.[1];
}

/** A row label as letters: "C" stays, "c" is "C", row 3 is "C", row 27 is "AA". */
export function rowLetters(row: unknown): string | undefined {
  if (typeof row === 'string' && /^[A-Za-z]{1,2}$/.test(row.trim())) return row.trim().toUpperCase();
  const n = numberFrom(row);
  if (!Number.isInteger(n) || n < 1 || n > 702) return undefined;
  const first = Math.floor((n - 1) / 26);
  const last = String.fromCharCode(65 + ((n - 1) % 26));
  return first === 0 ? last : `${String.fromCharCode(64 + first)}${last}`;
}

/**
 * A seat's row and number from its id in a common notation: "C7", "C-7", "C_07", "R3-S7",
 * "row3-seat7", "3-7"; undefined when the id says neither.
 */
export function seatFromId(id: string): { row: string; number: number } | undefined {
  const t = id.trim();
  const letter = /^([A-Za-z]{1,2})[-_ ]?0*(\d{1,3})$/.exec(t);
  if (letter) return { row: (letter[1] ?? '').toUpperCase(), number: Number(letter[2]) };
  const numbered = /^(?:r|row)?[-_ ]?(\d{1,3})[-_ :/]?(?:s|seat)?[-_ ]?0*(\d{1,3})$/i.exec(t);
  if (numbered && /\D/.test(t)) {
    const row = rowLetters(Number(numbered[1]));
    return row ? { row, number: Number(numbered[2]) } : undefined;
  }
  return undefined;
}

/** A seat's kind in the model's words: `wheelchair`, `premium` or `standard`. */
export function seatKindFrom(value: unknown): string {
  const t = typeof value === 'string' ? value.toLowerCase() : '';
  if (/wheelchair|accessib|disab/.test(t)) return 'wheelchair';
  if (/premium|vip|recliner|luxury|comfort/.test(t)) return 'premium';
  return 'standard';
}

/** A format in the model's words: `IMAX`, `3D` or `Standard` ("imax", "3d", "2D", "regular"). */
export function formatFrom(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const t = value.trim().toLowerCase();
  if (t.includes('imax')) return 'IMAX';
  if (/\b3-?d\b/.test(t)) return '3D';
  if (/^(2-?d|standard|regular|normal|classic|digital)$/.test(t)) return 'Standard';
  return value.trim();
}
