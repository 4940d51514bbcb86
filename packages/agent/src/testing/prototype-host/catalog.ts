/*
 * The prototype host's backend records: what the research prototype's backend keeps and serves
 * (its movies, theaters, showings and per-showing seats), in its field names and kinds. Ratings and
 * durations are text ("4.2", "1h 46m"), distances in miles, showings carry their format and screen,
 * and every seat has its own type and price (there are no ticket types: a seat's price is what it
 * costs). Nothing here comes from `@usher/booking`.
 */

export interface MovieRecord {
  id: string;
  title: string;
  genre: string[];
  /** Out of 5, as text ("4.2"). */
  rating: string;
  /** As text: "1h 46m", "2h", "45m". */
  duration: string;
  ageRating: string;
  synopsis: string;
}

export interface TheaterRecord {
  id: string;
  name: string;
  location: string;
  screenCount: number;
  distanceMiles: number;
  amenities: string[];
}

export type ShowingFormat = 'Standard' | 'IMAX' | '3D';

export interface ShowingRecord {
  id: string;
  movieId: string;
  theaterId: string;
  screenNumber: number;
  /** `YYYY-MM-DD`. */
  date: string;
  /** `HH:MM`, 24-hour. */
  time: string;
  format: ShowingFormat;
  totalSeats: number;
}

/**
 * The prototype's seat types are `standard`, `premium` and `couple`; `wheelchair` is added here
 * because the suite's worlds have wheelchair spaces and the prototype's data never had any.
 */
export type SeatType = 'standard' | 'premium' | 'couple' | 'wheelchair';

export interface SeatRecord {
  /** `<showing id>-<row><number>`, e.g. `s_m1_t2_20261122_1930_imax-F7`. */
  id: string;
  showingId: string;
  row: string;
  number: number;
  type: SeatType;
  price: number;
  status: 'available' | 'occupied';
}

export interface PrototypeCatalog {
  /** The study's fixed "today" (the prototype's `FIXED_CURRENT_DATE`): the first day of the date stage. */
  studyDate: string;
  /** How many days the date stage lists from the study day (the prototype lists 5). */
  dateWindow: number;
  movies: MovieRecord[];
  theaters: TheaterRecord[];
  showings: ShowingRecord[];
  /** Every seat of every showing, as the prototype's seats table holds them. */
  seats: SeatRecord[];
}

/** A booking the host made: what its backend stores. */
export interface PlacedBooking {
  /** A UUID, as the prototype's backend gives. */
  id: string;
  showingId: string;
  seatIds: string[];
  totalPrice: number;
}

/** Minutes of a duration text ("1h 46m", "2h", "45m", "106"), or null. */
export function durationMinutes(text: string): number | null {
  const value = text.trim().replace(/\s+/g, ' ');
  if (/^\d+$/.test(value)) return Number(value) > 0 ? Number(value) : null;
  const m = /^(?:(\d+)h(?: (\d+)m)?|(\d+)m)$/i.exec(value);
  if (!m) return null;
  if (m[3] !== undefined) return Number(m[3]) || null;
  const minutes = Number(m[1]) * 60 + Number(m[2] ?? 0);
  return minutes > 0 && Number(m[2] ?? 0) < 60 ? minutes : null;
}

/** "1h 46m", "2h" or "45m": how the prototype writes a duration. */
export function durationText(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h === 0 ? `${m}m` : m === 0 ? `${h}h` : `${h}h ${m}m`;
}

/** "7:30 PM" for "19:30". */
export function twelveHour(time: string): string {
  const m = /^(\d{1,2}):(\d{2})$/.exec(time.trim());
  if (!m) return time;
  const h = Number(m[1]);
  return `${h % 12 || 12}:${m[2]} ${h >= 12 ? 'PM' : 'AM'}`;
}

/** Minutes after midnight of "19:30" or "7:30 PM", or null. */
export function clockMinutes(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const plain = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  if (plain) return Number(plain[1]) * 60 + Number(plain[2]);
  const twelve = /^(1[0-2]|[1-9]):([0-5]\d)\s*([AaPp][Mm])$/.exec(text);
  if (!twelve) return null;
  const h = Number(twelve[1]) % 12;
  return (twelve[3]?.toUpperCase() === 'PM' ? h + 12 : h) * 60 + Number(twelve[2]);
}

/** The end of a showing on a 24-hour clock that wraps at midnight, and as the page prints it. */
export function endOf(time: string, minutes: number | null): { endTime: string; displayEndTime: string } {
  const start = clockMinutes(time);
  if (start === null || minutes === null) return { endTime: '', displayEndTime: '' };
  const total = start + minutes;
  const h = Math.floor(total / 60) % 24;
  const endTime = `${String(h).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
  return { endTime, displayEndTime: twelveHour(endTime) };
}
