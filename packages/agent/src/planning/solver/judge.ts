import { type HardConstraint, inRowMiddle, theaterNamed } from '@usher/booking';
import type { BookingSummary, Item, Stage } from '@usher/protocol';
import { clockOf, dateLabel, endMinutesOf, list, minutesOf, money, num, orList, text } from './fields.ts';
import { mixSize } from './model.ts';
import type { OptionStage, Verdict } from './types.ts';

/*
 * Per-constraint predicates, each on what one stage shows. They follow the story checker
 * (`@usher/booking` checker.ts, SCENARIOS.md) rule for rule, so an option judged ok here is one
 * the checker accepts on that constraint: inclusive time windows, genres and titles compared
 * case-insensitively over all genres (title or id), distances and ratings inclusive.
 */

/** Which hard kinds each stage's visible fields decide. Any other kind is ignored at that stage. */
export const JUDGED_AT: Record<Stage, ReadonlyArray<HardConstraint['kind']>> = {
  movie: ['title', 'genre', 'rating', 'ageRating', 'runtime'],
  theater: ['distance', 'theater'],
  date: ['date'],
  // seatCount and ticketMix here: enough seats left for the party.
  time: ['startTime', 'endTime', 'format', 'seatCount', 'ticketMix'],
  seat: ['seatCount', 'ticketMix', 'adjacent', 'rows', 'rowMiddle', 'seatKind'],
  // price here: the tickets alone already cost more (seat surcharges only add to it).
  ticket: ['seatCount', 'ticketMix', 'price'],
  // A last look at what the summary shows before the irreversible submit.
  confirm: ['price', 'title', 'theater', 'date', 'startTime', 'endTime', 'format', 'seatCount', 'ticketMix'],
};

/**
 * The choice stage that decides each kind the booking summary (`state.booking`) shows: on a later
 * stage, a choice made there that breaks a wish said since is sent back to it.
 */
export const DECIDED_AT: Partial<Record<HardConstraint['kind'], OptionStage>> = {
  title: 'movie',
  theater: 'theater',
  date: 'date',
  startTime: 'time',
  endTime: 'time',
  format: 'time',
};

/** The constraints of `list` that `stage` can judge. */
export function judgedHere<C extends { kind: string }>(stage: Stage, constraints: readonly C[]): C[] {
  const kinds: ReadonlyArray<string> = JUDGED_AT[stage];
  return constraints.filter((c) => kinds.includes(c.kind));
}

const lower = (xs: readonly string[]) => xs.map((s) => s.toLowerCase());
const overlapping = (a: readonly string[], b: readonly string[]) => a.filter((x) => lower(b).includes(x.toLowerCase()));

/** A bound as the participant wrote it, shown on a clock ("25:00" → "01:00 (next day)"). */
const bound = (time: string) => clockOf(minutesOf(time));

/** Inclusive window on a time, as the checker's `window`. */
export function timeWindow(verb: string, minutes: number, after?: string, before?: string): Verdict {
  const okAfter = after === undefined || minutes >= minutesOf(after);
  const okBefore = before === undefined || minutes <= minutesOf(before);
  const at = `${verb} ${clockOf(minutes)}`;
  if (after !== undefined && before !== undefined) {
    const range = `${bound(after)}–${bound(before)}`;
    return okAfter && okBefore
      ? { ok: true, detail: `${at}, within your ${range}` }
      : { ok: false, detail: `${at}, outside your ${range}` };
  }
  if (after !== undefined) {
    return okAfter
      ? { ok: true, detail: `${at}, at or after your ${bound(after)}` }
      : { ok: false, detail: `${at}, before your ${bound(after)}` };
  }
  return okBefore
    ? { ok: true, detail: `${at}, by your ${bound(before ?? '')} limit` }
    : { ok: false, detail: `${at}, after your ${bound(before ?? '')} limit` };
}

export function formatVerdict(format: string, c: Extract<HardConstraint, { kind: 'format' }>): Verdict {
  if (c.is && !c.is.some((f) => f === format)) return { ok: false, detail: `${format}, not ${orList(c.is)}` };
  if (c.not?.some((f) => f === format)) return { ok: false, detail: `${format}, which you want to avoid` };
  return { ok: true, detail: c.is ? `${format} as wanted` : `${format}, not ${orList(c.not ?? [])}` };
}

/** A theater against a named-theater wish, by the checker's `theaterNamed` (id, name, or a shorter name). */
export function theaterVerdict(
  theater: { id: string; name: string },
  c: Extract<HardConstraint, { kind: 'theater' }>,
): Verdict {
  const named = (list: readonly string[]) => list.some((wanted) => theaterNamed(theater, wanted));
  if (c.is && !named(c.is)) return { ok: false, detail: `${theater.name}, not ${orList(c.is)}` };
  if (c.not && named(c.not)) return { ok: false, detail: `${theater.name}, which you ruled out` };
  return { ok: true, detail: c.is ? 'the theater you asked for' : `not ${orList(c.not ?? [])}` };
}

function dateVerdict(date: string, c: Extract<HardConstraint, { kind: 'date' }>): Verdict {
  return c.dates.includes(date)
    ? { ok: true, detail: 'the day you asked for' }
    : { ok: false, detail: `${dateLabel(date)}, not ${orList(c.dates.map(dateLabel))}` };
}

/** The same words for a seat count and a ticket mix of one size, so a reason says it once. */
function seatsLeftVerdict(left: number, needed: number): Verdict | undefined {
  if (Number.isNaN(left)) return undefined;
  return left >= needed
    ? { ok: true, detail: `${left} seats left for your ${needed}` }
    : { ok: false, detail: `only ${left} seat${left === 1 ? '' : 's'} left, you need ${needed}` };
}

/**
 * Judges `c` on one item of a choice stage, or undefined when the stage's fields do not decide it.
 * Movie: title, genre, rating, ageRating. Theater: distance, theater. Date: date. Time: start and end
 * (an end clock earlier than the start is after midnight), format, and seats left for the party.
 */
export function judgeOption(stage: OptionStage, c: HardConstraint, item: Item): Verdict | undefined {
  switch (stage) {
    case 'movie':
      return judgeMovie(c, item);
    case 'theater': {
      if (c.kind === 'theater') return theaterVerdict({ id: item.id, name: text(item, 'name') || item.value }, c);
      if (c.kind !== 'distance') return undefined;
      const km = num(item, 'distanceKm');
      // A distance the stage does not show is unknown, not too far.
      if (Number.isNaN(km)) return undefined;
      return km <= c.maxKm
        ? { ok: true, detail: `${km} km away (within ${c.maxKm} km)` }
        : { ok: false, detail: `${km} km away, beyond your ${c.maxKm} km` };
    }
    case 'date':
      return c.kind === 'date' ? dateVerdict(text(item, 'date') || item.id, c) : undefined;
    case 'time':
      return judgeTime(c, item);
  }
}

function judgeMovie(c: HardConstraint, item: Item): Verdict | undefined {
  switch (c.kind) {
    case 'title': {
      const names = [text(item, 'title') || item.value, item.id];
      if (c.is && overlapping(names, c.is).length === 0) return { ok: false, detail: `not ${orList(c.is)}` };
      if (c.not && overlapping(names, c.not).length > 0) return { ok: false, detail: 'a title you ruled out' };
      return { ok: true, detail: c.is ? 'the title you asked for' : `not ${orList(c.not ?? [])}` };
    }
    case 'genre': {
      const genres = list(item, 'genres');
      // A film whose genres the stage does not show: unknown, not none of them.
      if (genres.length === 0 && c.include) return undefined;
      const shown = genres.join('/') || 'no genre';
      if (c.include && overlapping(genres, c.include).length === 0)
        return { ok: false, detail: `${shown}, not ${orList(c.include)}` };
      const bad = c.exclude ? overlapping(genres, c.exclude) : [];
      if (bad.length > 0) return { ok: false, detail: `${shown}, which includes ${orList(bad, 'and')}` };
      return { ok: true, detail: shown };
    }
    case 'rating': {
      const rating = num(item, 'rating');
      if (Number.isNaN(rating)) return undefined;
      return rating >= c.min
        ? { ok: true, detail: `rated ${rating} (at least ${c.min})` }
        : { ok: false, detail: `rated ${rating}, below your ${c.min}` };
    }
    case 'runtime': {
      const minutes = runtimeOf(item);
      if (minutes === undefined) return undefined;
      const ok =
        (c.maxMinutes === undefined || minutes <= c.maxMinutes) &&
        (c.minMinutes === undefined || minutes >= c.minMinutes);
      return ok
        ? { ok: true, detail: `runs ${minutes} minutes` }
        : {
            ok: false,
            detail: `runs ${minutes} minutes, ${c.maxMinutes !== undefined && minutes > c.maxMinutes ? `over your ${c.maxMinutes}` : `under your ${c.minMinutes}`}`,
          };
    }
    case 'ageRating': {
      const age = text(item, 'ageRating');
      if (age === '') return undefined;
      return c.allowed.some((a) => a === age)
        ? { ok: true, detail: `${age} (allowed)` }
        : { ok: false, detail: `${age}, not ${orList(c.allowed)}` };
    }
    default:
      return undefined;
  }
}

/** A film's running time in minutes as its item shows it (hosts' own shapes are read into `durationMinutes`). */
function runtimeOf(item: Item): number | undefined {
  const minutes = num(item, 'durationMinutes');
  return Number.isFinite(minutes) && minutes > 0 ? minutes : undefined;
}

function judgeTime(c: HardConstraint, item: Item): Verdict | undefined {
  const start = startOf(item);
  switch (c.kind) {
    case 'startTime':
      return timeWindow('starts', start, c.after, c.before);
    case 'endTime':
      return timeWindow('ends', endMinutesOf(start, text(item, 'endTime')), c.after, c.before);
    case 'format':
      return formatVerdict(text(item, 'format'), c);
    // Seats left that the stage does not show are unknown until the seat map shows them (judged there).
    case 'seatCount':
      return seatsLeftVerdict(num(item, 'seatsLeft'), c.count);
    case 'ticketMix':
      return seatsLeftVerdict(num(item, 'seatsLeft'), mixSize(c));
    default:
      return undefined;
  }
}

/** A showtime item's start in minutes (`startMinutes`, else its `time`). */
export function startOf(item: Item): number {
  const start = num(item, 'startMinutes');
  return Number.isNaN(start) ? minutesOf(text(item, 'time')) : start;
}

/** The ticket mix a story names, every type it does not name at 0 (the checker's reading). */
export function wantedMix(c: Extract<HardConstraint, { kind: 'ticketMix' }>): Record<string, number> {
  return { adult: c.adult ?? 0, child: c.child ?? 0, senior: c.senior ?? 0 };
}

/** `2 adult, 1 child`, or `none`. */
export function showMix(mix: Record<string, number>): string {
  const parts = Object.entries(mix)
    .filter(([, n]) => n > 0)
    .map(([id, n]) => `${n} ${id}`);
  return parts.join(', ') || 'none';
}

/**
 * Judges `c` on the booking summary the confirm stage shows (`state.booking`), or undefined when
 * the summary does not carry what it needs (seat rows and kinds, the movie and theater facts).
 */
export function judgeBooking(c: HardConstraint, booking: BookingSummary): Verdict | undefined {
  const showing = booking.showing;
  switch (c.kind) {
    case 'price':
      if (booking.total === undefined) return undefined;
      return booking.total <= c.maxTotal
        ? { ok: true, detail: `total ${money(booking.total, booking.currency)}, within your ${c.maxTotal.toFixed(2)}` }
        : {
            ok: false,
            detail: `the total is ${money(booking.total, booking.currency)}, over your limit of ${money(c.maxTotal, booking.currency)}`,
          };
    case 'title': {
      const movie = booking.movie;
      if (!movie) return undefined;
      const names = [movie.title, movie.id];
      if (c.is && overlapping(names, c.is).length === 0)
        return { ok: false, detail: `the movie is ${movie.title}, not ${orList(c.is)}` };
      if (c.not && overlapping(names, c.not).length > 0)
        return { ok: false, detail: `the movie is ${movie.title}, which you ruled out` };
      return { ok: true, detail: `${movie.title} as wanted` };
    }
    case 'theater': {
      const theater = booking.theater;
      if (!theater) return undefined;
      const v = theaterVerdict(theater, c);
      return v.ok
        ? { ok: true, detail: `at ${theater.name} as wanted` }
        : { ok: false, detail: `the theater is ${v.detail}` };
    }
    case 'date':
      return booking.date === undefined ? undefined : dateVerdict(booking.date, c);
    case 'startTime':
    case 'endTime': {
      if (!showing) return undefined;
      const start = minutesOf(showing.time);
      const minutes = c.kind === 'startTime' ? start : endMinutesOf(start, showing.endTime);
      return timeWindow(c.kind === 'startTime' ? 'starts' : 'ends', minutes, c.after, c.before);
    }
    case 'format':
      return showing ? formatVerdict(showing.format, c) : undefined;
    case 'seatCount': {
      const n = booking.seats?.length ?? 0;
      return n === c.count
        ? { ok: true, detail: `${n} seats as wanted` }
        : { ok: false, detail: `${n} seat${n === 1 ? '' : 's'} chosen, you want ${c.count}` };
    }
    case 'ticketMix': {
      // A host with no ticket stage lists no tickets: unknown (the seats are judged), not none.
      if (!booking.tickets || booking.tickets.length === 0) return undefined;
      const got: Record<string, number> = { adult: 0, child: 0, senior: 0 };
      for (const t of booking.tickets ?? []) got[t.typeId] = (got[t.typeId] ?? 0) + t.quantity;
      const wanted = wantedMix(c);
      const ok = Object.keys({ ...got, ...wanted }).every((id) => (got[id] ?? 0) === (wanted[id] ?? 0));
      return ok
        ? { ok: true, detail: `tickets ${showMix(got)} as wanted` }
        : { ok: false, detail: `tickets ${showMix(got)}, you want ${showMix(wanted)}` };
    }
    default:
      return undefined;
  }
}

/** A seat as the seat stage shows it. */
export interface SeatView {
  id: string;
  row: string;
  /** 0 is the row nearest the screen. */
  rowIndex: number;
  number: number;
  kind: string;
  surcharge: number;
  /** Not taken and not disabled. */
  free: boolean;
  /** Position in the stage's catalog order (`items`), for deterministic ties. */
  order: number;
}

/** The seat map's shape, from the seat stage's `meta`. */
export interface SeatLayout {
  rows: string[];
  seatsPerRow: number;
  /** An aisle runs between seat n and n + 1 for each n listed. */
  aisleAfter: number[];
}

/**
 * Whether a seat's row is allowed, not among the first `notFirst` and not among the last `notLast`
 * rows, and among the last `last` rows when that is said.
 */
export function seatInRows(c: Extract<HardConstraint, { kind: 'rows' }>, seat: SeatView, layout: SeatLayout): boolean {
  const last = layout.rows.length - 1;
  const allowed = c.allowed?.map((r) => r.toUpperCase());
  return (
    (allowed === undefined || allowed.includes(seat.row.toUpperCase())) &&
    (c.notFirst === undefined || seat.rowIndex >= c.notFirst) &&
    (c.notLast === undefined || seat.rowIndex <= last - c.notLast) &&
    (c.last === undefined || seat.rowIndex > last - c.last)
  );
}

/**
 * Whether a seat lies in the middle half of its row, away from either end: the checker's
 * `rowMiddle` (`inRowMiddle` of `@usher/booking`; 12 a row keeps seats 4–9).
 */
export function midRow(seat: SeatView, layout: SeatLayout): boolean {
  return inRowMiddle(seat.number, layout.seatsPerRow);
}

/**
 * Seats sit together when they share a row, their numbers run without a gap and no aisle runs
 * between any two of them (the checker's `adjacent`). One seat is trivially together.
 */
export function together(seats: readonly SeatView[], layout: SeatLayout): boolean {
  if (seats.length <= 1) return true;
  if (new Set(seats.map((s) => s.row)).size > 1) return false;
  const numbers = seats.map((s) => s.number).sort((a, b) => a - b);
  return numbers.every((n, i) => {
    const prev = numbers[i - 1];
    return prev === undefined || (n === prev + 1 && !layout.aisleAfter.includes(prev));
  });
}

/** Whether a set meets a `seatKind` wish: all seats of the kind, or at least `count` of them. */
export function kindMet(c: Extract<HardConstraint, { kind: 'seatKind' }>, seats: readonly SeatView[]): boolean {
  const have = seats.filter((s) => s.kind === c.seatKind).length;
  return seats.length > 0 && have >= (c.count ?? seats.length);
}
