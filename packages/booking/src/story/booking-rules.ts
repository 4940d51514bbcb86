import type { SubmittedBooking } from '../engine/booking.ts';
import type { SeatMap } from '../scenario/schema.ts';
import { inRowMiddle } from '../scenario/seats.ts';
import type { HardConstraint } from './constraints.ts';
import type { Verdict } from './showing-rules.ts';

/**
 * Seats are adjacent when they share a row, their numbers run without a gap, and no aisle runs
 * between any two of them: a party split by an aisle does not sit together.
 */
export function adjacent(seats: SubmittedBooking['seats'], map: SeatMap): Verdict {
  const list = seats.map((s) => s.id).join(', ') || 'no seats';
  if (seats.length <= 1) return { ok: true, detail: `${list}: nothing to keep together` };
  if (new Set(seats.map((s) => s.row)).size > 1) return { ok: false, detail: `${list} are in different rows` };
  const numbers = seats.map((s) => s.number).sort((a, b) => a - b);
  for (let i = 1; i < numbers.length; i++) {
    const prev = numbers[i - 1] as number;
    if (numbers[i] !== prev + 1) return { ok: false, detail: `${list} have a gap after seat ${prev}` };
    if (map.aisleAfter.includes(prev))
      return { ok: false, detail: `${list} are split by the aisle after seat ${prev}` };
  }
  return { ok: true, detail: `${list} are side by side` };
}

/** The seat numbers in the middle of a row, e.g. `4–9`, or `none` in a row of one or two seats. */
function middleSeats(seatsPerRow: number): string {
  const numbers = Array.from({ length: seatsPerRow }, (_, i) => i + 1).filter((n) => inRowMiddle(n, seatsPerRow));
  const [first] = numbers;
  const last = numbers[numbers.length - 1];
  if (first === undefined || last === undefined) return 'none';
  return first === last ? `${first}` : `${first}–${last}`;
}

/** Checks a constraint about the seats, tickets or price of a booking; undefined for the rest. */
export function checkBookingConstraint(
  c: HardConstraint,
  booking: SubmittedBooking,
  map: SeatMap,
): Verdict | undefined {
  const seats = booking.seats;
  const ids = seats.map((s) => s.id).join(', ') || 'no seats';
  switch (c.kind) {
    case 'seatCount':
      return { ok: seats.length === c.count, detail: `${seats.length} seats; wanted ${c.count}` };
    case 'adjacent':
      return adjacent(seats, map);
    case 'rows': {
      const allowed = c.allowed?.map((r) => r.toUpperCase());
      const last = map.rows.length - 1;
      const bad = seats.filter(
        (s) =>
          (allowed !== undefined && !allowed.includes(s.row)) ||
          (c.notFirst !== undefined && s.rowIndex < c.notFirst) ||
          (c.notLast !== undefined && s.rowIndex > last - c.notLast) ||
          (c.last !== undefined && s.rowIndex <= last - c.last),
      );
      const wanted = [
        allowed && `rows ${allowed.join(', ')}`,
        c.notFirst && `not the first ${c.notFirst} row(s)`,
        c.notLast && `not the last ${c.notLast} row(s)`,
        c.last && `the last ${c.last} row(s)`,
      ].filter(Boolean);
      return {
        ok: bad.length === 0,
        detail: `${ids}; wanted ${wanted.join(', ')}${bad.length ? `; outside: ${bad.map((s) => s.id).join(', ')}` : ''}`,
      };
    }
    case 'rowMiddle': {
      const bad = seats.filter((s) => !inRowMiddle(s.number, map.seatsPerRow));
      const middle = middleSeats(map.seatsPerRow);
      return {
        ok: bad.length === 0 && seats.length > 0,
        detail: `${ids}; wanted seats ${middle} of each row's ${map.seatsPerRow}${bad.length ? `; at or near an end: ${bad.map((s) => s.id).join(', ')}` : ''}`,
      };
    }
    case 'seatKind': {
      const have = seats.filter((s) => s.kind === c.seatKind).length;
      const need = c.count ?? seats.length;
      return {
        ok: have >= need && seats.length > 0,
        detail: `${have} ${c.seatKind} seat(s) of ${seats.length}; wanted ${c.count === undefined ? 'all' : `at least ${need}`}`,
      };
    }
    case 'ticketMix': {
      const got = (id: string) => booking.tickets.find((t) => t.typeId === id)?.quantity ?? 0;
      // Types the story does not name must be absent: "two adults" is not "two adults and a child".
      const wanted = { adult: c.adult ?? 0, child: c.child ?? 0, senior: c.senior ?? 0 };
      const ok = Object.entries(wanted).every(([id, n]) => got(id) === n);
      const show = (m: Record<string, number>) =>
        Object.entries(m)
          .filter(([, n]) => n > 0)
          .map(([id, n]) => `${n} ${id}`)
          .join(', ') || 'none';
      return {
        ok,
        detail: `tickets ${show({ adult: got('adult'), child: got('child'), senior: got('senior') })}; wanted ${show(wanted)}`,
      };
    }
    case 'price':
      return {
        ok: booking.total <= c.maxTotal,
        detail: `total ${booking.total.toFixed(2)} ${booking.currency}; wanted at most ${c.maxTotal.toFixed(2)}`,
      };
    default:
      return undefined;
  }
}
