import type { z } from 'zod';
import { fallbackMessage } from './fields.ts';
import { type Scenario, ScenarioSchema } from './schema.ts';
import { seatsOf } from './seats.ts';

/** A scenario file that cannot be used; the message names each bad field, e.g. `scenario.movies[3].title: …`. */
export class ScenarioError extends Error {
  override readonly name = 'ScenarioError';
  constructor(
    message: string,
    /** One line per problem, each starting with the field path. */
    readonly issues: readonly string[] = [message],
  ) {
    super(message);
  }
}

type Path = readonly PropertyKey[];

/** `scenario.movies[3].durationMinutes` from `['movies', 3, 'durationMinutes']`. */
export function formatPath(source: string, path: Path): string {
  return path.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out}[${key}]` : `${out}.${String(key)}`),
    source,
  );
}

/** Reports at most this many problems, so one systematic mistake does not bury the message. */
const MAX_REPORTED = 10;

function fail(issues: string[]): never {
  const shown = issues.slice(0, MAX_REPORTED);
  const more = issues.length > MAX_REPORTED ? `; … and ${issues.length - MAX_REPORTED} more` : '';
  throw new ScenarioError(`${shown.join('; ')}${more}`, issues);
}

/**
 * Checks and returns a scenario: its shape (zod), then everything the shape cannot say:
 * unique ids, references between records, seats that exist, showings not before `today`.
 * Throws `ScenarioError`; `source` names the file in messages.
 */
export function parseScenario(json: unknown, source = 'scenario'): Scenario {
  const parsed = ScenarioSchema.safeParse(json, { error: fallbackMessage });
  if (!parsed.success) {
    fail(parsed.error.issues.map((issue: z.core.$ZodIssue) => `${formatPath(source, issue.path)}: ${issue.message}`));
  }
  const problems = referenceProblems(parsed.data);
  if (problems.length > 0) fail(problems.map(([path, message]) => `${formatPath(source, path)}: ${message}`));
  return parsed.data;
}

function duplicates(list: readonly { id: string }[], key: string, out: [Path, string][]): void {
  const seen = new Map<string, number>();
  list.forEach((record, i) => {
    const first = seen.get(record.id);
    if (first === undefined) seen.set(record.id, i);
    else out.push([[key, i, 'id'], `duplicate id "${record.id}" (also ${key}[${first}])`]);
  });
}

function referenceProblems(s: Scenario): [Path, string][] {
  const out: [Path, string][] = [];
  duplicates(s.movies, 'movies', out);
  duplicates(s.theaters, 'theaters', out);
  duplicates(s.seatMaps, 'seatMaps', out);
  duplicates(s.showings, 'showings', out);
  duplicates(s.ticketTypes, 'ticketTypes', out);

  const seatIds = new Map<string, Set<string>>();
  s.seatMaps.forEach((map, i) => {
    const rows = new Set<string>();
    map.rows.forEach((row, r) => {
      if (rows.has(row)) out.push([['seatMaps', i, 'rows', r], `duplicate row "${row}"`]);
      rows.add(row);
    });
    map.aisleAfter.forEach((n, a) => {
      if (n >= map.seatsPerRow) {
        out.push([
          ['seatMaps', i, 'aisleAfter', a],
          `an aisle after seat ${n} must be before the last seat (${map.seatsPerRow})`,
        ]);
      }
    });
    map.kinds.premium.forEach((row, r) => {
      if (!rows.has(row)) out.push([['seatMaps', i, 'kinds', 'premium', r], `unknown row "${row}"`]);
    });
    const ids = new Set(seatsOf(map).map((seat) => seat.id));
    map.kinds.wheelchair.forEach((seat, w) => {
      if (!ids.has(seat))
        out.push([['seatMaps', i, 'kinds', 'wheelchair', w], `seat "${seat}" is not on this seat map`]);
    });
    seatIds.set(map.id, ids);
  });

  const theaterMap = new Map<string, string>();
  s.theaters.forEach((theater, i) => {
    if (!seatIds.has(theater.seatMapId)) {
      out.push([['theaters', i, 'seatMapId'], `unknown seat map "${theater.seatMapId}"`]);
    }
    theaterMap.set(theater.id, theater.seatMapId);
  });

  const movieIds = new Set(s.movies.map((movie) => movie.id));
  s.showings.forEach((showing, i) => {
    if (!movieIds.has(showing.movieId)) out.push([['showings', i, 'movieId'], `unknown movie "${showing.movieId}"`]);
    const mapId = theaterMap.get(showing.theaterId);
    if (mapId === undefined) out.push([['showings', i, 'theaterId'], `unknown theater "${showing.theaterId}"`]);
    if (showing.date < s.today) out.push([['showings', i, 'date'], `${showing.date} is before today (${s.today})`]);
    const ids = mapId === undefined ? undefined : seatIds.get(mapId);
    const taken = new Set<string>();
    showing.takenSeats.forEach((seat, t) => {
      if (ids !== undefined && !ids.has(seat)) {
        out.push([['showings', i, 'takenSeats', t], `seat "${seat}" is not on seat map "${mapId}"`]);
      }
      if (taken.has(seat)) out.push([['showings', i, 'takenSeats', t], `seat "${seat}" is listed twice`]);
      taken.add(seat);
    });
  });
  return out;
}
