import { inRowMiddle } from '../scenario/seats.ts';
import { clockOf, minutesOf } from '../time.ts';
import { type HardConstraint, theaterNamed } from './constraints.ts';
import type { ShowingFacts } from './facts.ts';

/** A verdict on one constraint, with a line a person can read. */
export interface Verdict {
  ok: boolean;
  detail: string;
}

const lower = (list: readonly string[]) => list.map((s) => s.toLowerCase());
const overlap = (a: readonly string[], b: readonly string[]) => lower(a).some((x) => lower(b).includes(x));

function window(what: string, minutes: number, after?: string, before?: string): Verdict {
  // Both bounds are inclusive: "after 18:00" accepts a showing at 18:00.
  const okAfter = after === undefined || minutes >= minutesOf(after);
  const okBefore = before === undefined || minutes <= minutesOf(before);
  const wanted = [after && `at or after ${after}`, before && `at or before ${before}`].filter(Boolean).join(' and ');
  return {
    ok: okAfter && okBefore,
    detail: `${what} ${clockOf(minutes)}${minutes >= 1440 ? ' (next day)' : ''}; wanted ${wanted}`,
  };
}

/**
 * Checks a constraint that depends only on the showing (its day, times, movie, theater, format),
 * or returns undefined for a constraint about seats, tickets or price.
 */
export function checkShowingConstraint(c: HardConstraint, f: ShowingFacts): Verdict | undefined {
  const { showing, movie, theater } = f;
  switch (c.kind) {
    case 'date':
      return { ok: c.dates.includes(showing.date), detail: `on ${showing.date}; wanted ${c.dates.join(' or ')}` };
    case 'startTime':
      return window('starts at', f.startMinutes, c.after, c.before);
    case 'endTime':
      return window('ends at', f.endMinutes, c.after, c.before);
    case 'genre': {
      const ok = (!c.include || overlap(movie.genres, c.include)) && (!c.exclude || !overlap(movie.genres, c.exclude));
      const wanted = [c.include && `one of ${c.include.join(', ')}`, c.exclude && `none of ${c.exclude.join(', ')}`];
      return { ok, detail: `genres ${movie.genres.join(', ')}; wanted ${wanted.filter(Boolean).join(' and ')}` };
    }
    case 'title': {
      const names = [movie.title, movie.id];
      const ok = (!c.is || overlap(names, c.is)) && (!c.not || !overlap(names, c.not));
      return {
        ok,
        detail: `"${movie.title}"; wanted ${[c.is && `one of ${c.is.join(', ')}`, c.not && `not ${c.not.join(', ')}`].filter(Boolean).join(' and ')}`,
      };
    }
    case 'rating':
      return { ok: movie.rating >= c.min, detail: `rated ${movie.rating}; wanted at least ${c.min}` };
    case 'runtime': {
      const minutes = movie.durationMinutes;
      const ok =
        (c.maxMinutes === undefined || minutes <= c.maxMinutes) &&
        (c.minMinutes === undefined || minutes >= c.minMinutes);
      const wanted = [
        c.minMinutes !== undefined && `at least ${c.minMinutes}`,
        c.maxMinutes !== undefined && `at most ${c.maxMinutes}`,
      ];
      return { ok, detail: `runs ${minutes} min; wanted ${wanted.filter(Boolean).join(' and ')} min` };
    }
    case 'ageRating':
      return {
        ok: c.allowed.includes(movie.ageRating),
        detail: `rated ${movie.ageRating}; allowed ${c.allowed.join(', ')}`,
      };
    case 'distance':
      return {
        ok: theater.distanceKm <= c.maxKm,
        detail: `${theater.name} is ${theater.distanceKm} km away; wanted at most ${c.maxKm} km`,
      };
    case 'theater': {
      const named = (list: readonly string[]) => list.some((wanted) => theaterNamed(theater, wanted));
      const ok = (!c.is || named(c.is)) && (!c.not || !named(c.not));
      const wanted = [c.is && `one of ${c.is.join(', ')}`, c.not && `not ${c.not.join(', ')}`];
      return { ok, detail: `at ${theater.name}; wanted ${wanted.filter(Boolean).join(' and ')}` };
    }
    case 'format': {
      const ok = (!c.is || c.is.includes(showing.format)) && !c.not?.includes(showing.format);
      return {
        ok,
        detail: `${showing.format}; wanted ${[c.is?.join(' or '), c.not && `not ${c.not.join(' or ')}`].filter(Boolean).join(' and ')}`,
      };
    }
    default:
      return undefined;
  }
}

/**
 * Whether a showing can still hold a booking that meets the seat constraints: enough free seats
 * for `seatCount`, enough free seats of a kind for `seatKind`, enough free seats in the middle of
 * their rows for `rowMiddle`. Each is judged alone; adjacency and rows are not checked here (that
 * would need every seat combination).
 */
export function seatsFeasible(c: HardConstraint, f: ShowingFacts, seatCount: number): boolean {
  if (c.kind === 'seatCount') return f.freeSeats.length >= c.count;
  if (c.kind === 'rowMiddle')
    return f.freeSeats.filter((s) => inRowMiddle(s.number, f.seatMap.seatsPerRow)).length >= seatCount;
  if (c.kind === 'seatKind') return f.freeSeats.filter((s) => s.kind === c.seatKind).length >= (c.count ?? seatCount);
  return true;
}
