import type { SubmittedBooking } from '../engine/booking.ts';
import type { Catalog } from '../scenario/catalog.ts';
import { roundMoney } from '../scenario/catalog.ts';
import { clockOf } from '../time.ts';
import type { Constraint } from './constraints.ts';
import type { ShowingFacts } from './facts.ts';

type Preference = Extract<
  Constraint,
  { kind: 'cheapest' | 'closest' | 'earliest' | 'latest' | 'centered' | 'highestRated' }
>;

/** A soft score from 0 (worst) to 1 (best) with the reasoning. */
export interface Score {
  score: number;
  detail: string;
}

/** Where `value` sits between the worst and the best of the alternatives (1 = best). */
function relative(value: number, values: readonly number[], higherIsBetter: boolean): number {
  const best = higherIsBetter ? Math.max(...values) : Math.min(...values);
  const worst = higherIsBetter ? Math.min(...values) : Math.max(...values);
  if (best === worst) return (higherIsBetter ? value >= best : value <= best) ? 1 : 0;
  return Math.min(1, Math.max(0, (value - worst) / (best - worst)));
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/**
 * Scores a preference against the alternatives: `options` are the candidate showings (those the
 * hard constraints allow) plus the booked one.
 * - cheapest: the total against the cheapest and dearest totals the same tickets and seat count
 *   could cost at any option (cheapest/dearest free seats; seat-level wishes are ignored here).
 * - closest: the theater's distance against the options' distances.
 * - earliest: the start, day and time, against every option's (the soonest showing scores 1).
 * - latest: the start time against the options on the booked day (a late showtime).
 * - centered: how near each seat is to the middle of its row and of the room, averaged.
 * - highestRated: the movie's audience score against the options' movies.
 */
export function scorePreference(
  p: Preference,
  booking: SubmittedBooking,
  booked: ShowingFacts,
  options: readonly ShowingFacts[],
  catalog: Catalog,
): Score {
  switch (p.kind) {
    case 'cheapest': {
      const n = booking.seats.length;
      const totals = options.flatMap((o) => {
        if (o.freeSeats.length < n) return [];
        const tickets = booking.tickets.reduce((sum, t) => {
          const type = catalog.ticketType(t.typeId);
          return sum + (type ? t.quantity * catalog.unitPrice(type, o.showing.format) : 0);
        }, 0);
        const surcharges = o.freeSeats.map((s) => catalog.seatSurcharge(s.kind)).sort((a, b) => a - b);
        const cheap = surcharges.slice(0, n).reduce((a, b) => a + b, 0);
        const dear = surcharges.slice(surcharges.length - n).reduce((a, b) => a + b, 0);
        return [roundMoney(tickets + cheap), roundMoney(tickets + dear)];
      });
      const score = relative(booking.total, [...totals, booking.total], false);
      return {
        score: round2(score),
        detail: `total ${booking.total.toFixed(2)}; the same tickets cost ${Math.min(...totals, booking.total).toFixed(2)}–${Math.max(...totals, booking.total).toFixed(2)} across ${options.length} option(s)`,
      };
    }
    case 'closest': {
      const d = booked.theater.distanceKm;
      const all = options.map((o) => o.theater.distanceKm);
      return {
        score: round2(relative(d, all, false)),
        detail: `${d} km; options range ${Math.min(...all)}–${Math.max(...all)} km`,
      };
    }
    case 'earliest': {
      // The soonest showing: days count ("the earliest you have" on Saturday beats Sunday morning).
      const at = (o: ShowingFacts) => dayNumber(o.showing.date) * 1440 + o.startMinutes;
      const all = options.map(at);
      const score = relative(at(booked), all, false);
      const first = options.reduce((a, b) => (at(b) < at(a) ? b : a), booked);
      return {
        score: round2(score),
        detail: `starts ${booked.showing.date} ${booked.showing.time}; the soonest option starts ${first.showing.date} ${first.showing.time}`,
      };
    }
    case 'latest': {
      // A late showtime, judged within its day: "as late as possible" does not mean the last day.
      const sameDay = options.filter((o) => o.showing.date === booked.showing.date).map((o) => o.startMinutes);
      const score = relative(booked.startMinutes, sameDay, true);
      return {
        score: round2(score),
        detail: `starts ${booked.showing.time}; options on ${booked.showing.date} start ${clockOf(Math.min(...sameDay))}–${clockOf(Math.max(...sameDay))}`,
      };
    }
    case 'centered': {
      const { rows, seatsPerRow } = booked.seatMap;
      const halfWidth = Math.max(1, (seatsPerRow - 1) / 2);
      const halfDepth = Math.max(1, (rows.length - 1) / 2);
      const each = booking.seats.map((s) => {
        const h = Math.abs(s.number - (seatsPerRow + 1) / 2) / halfWidth;
        const v = Math.abs(s.rowIndex - (rows.length - 1) / 2) / halfDepth;
        return 1 - (h + v) / 2;
      });
      const score = each.length ? each.reduce((a, b) => a + b, 0) / each.length : 0;
      return {
        score: round2(score),
        detail: `seats ${booking.seats.map((s) => s.id).join(', ') || 'none'}; 1 is the middle seat of the middle row`,
      };
    }
    case 'highestRated': {
      const r = booked.movie.rating;
      const all = options.map((o) => o.movie.rating);
      return {
        score: round2(relative(r, all, true)),
        detail: `rated ${r}; options range ${Math.min(...all)}–${Math.max(...all)}`,
      };
    }
  }
}
