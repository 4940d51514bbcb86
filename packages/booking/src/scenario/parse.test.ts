import { describe, expect, it } from 'vitest';
import { defaultScenario } from './default.ts';
import { parseScenario, ScenarioError } from './parse.ts';

/** A small valid scenario as a file would hold it; each test breaks one thing. */
function tiny(): Record<string, unknown> {
  return {
    id: 'tiny',
    name: 'Tiny',
    today: '2026-11-21',
    currency: 'USD',
    movies: [
      { id: 'm1', title: 'One', genres: ['Drama'], durationMinutes: 100, rating: 7, ageRating: 'PG', synopsis: '' },
      { id: 'm2', title: 'Two', genres: ['Comedy'], durationMinutes: 90, rating: 6, ageRating: 'G', synopsis: '' },
    ],
    theaters: [{ id: 't1', name: 'Hall', distanceKm: 1, amenities: [], seatMapId: 's1' }],
    seatMaps: [
      { id: 's1', rows: ['A', 'B'], seatsPerRow: 4, aisleAfter: [2], kinds: { premium: ['B'], wheelchair: ['A1'] } },
    ],
    showings: [
      {
        id: 'x1',
        movieId: 'm1',
        theaterId: 't1',
        date: '2026-11-21',
        time: '19:30',
        format: 'Standard',
        takenSeats: ['A2'],
      },
    ],
    ticketTypes: [{ id: 'adult', label: 'Adult', price: 10 }],
  };
}

type Key = string | number;

/** Sets `value` at `path` inside a plain JSON value, e.g. `['movies', 1, 'durationMinutes']`. */
function set(json: unknown, path: readonly Key[], value: unknown): void {
  const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<Key, unknown>)[key], json);
  (parent as Record<Key, unknown>)[path.at(-1) as Key] = value;
}

/** A tiny scenario with one value changed. */
function tinyWith(path: readonly Key[], value: unknown): Record<string, unknown> {
  const json = tiny();
  set(json, path, value);
  return json;
}

function errorOf(json: unknown, source?: string): ScenarioError {
  try {
    parseScenario(json, source);
  } catch (err) {
    if (err instanceof ScenarioError) return err;
    throw err;
  }
  throw new Error('parseScenario accepted the scenario');
}

describe('parseScenario', () => {
  it('accepts a valid scenario and fills in defaults', () => {
    const s = parseScenario(tiny());
    expect(s.formatSurcharges).toEqual({ Standard: 0, IMAX: 0, '3D': 0 });
    expect(s.seatKindSurcharges.premium).toBe(0);
  });

  it('names the field path and what it expected', () => {
    const err = errorOf(tinyWith(['movies', 1, 'durationMinutes'], -5));
    expect(err.name).toBe('ScenarioError');
    expect(err.message).toContain('scenario.movies[1].durationMinutes: expected a positive integer');
  });

  it('uses the source name given', () => {
    expect(errorOf(tinyWith(['movies', 0, 'title'], undefined), 'my.json').message).toMatch(
      /^my\.json\.movies\[0\]\.title: expected non-empty text \(missing\)/,
    );
  });

  it.each<[string, Key[], unknown, string]>([
    ['today', ['today'], '21/11/2026', 'scenario.today: expected a YYYY-MM-DD date'],
    [
      'an impossible date',
      ['showings', 0, 'date'],
      '2026-02-30',
      'scenario.showings[0].date: expected a YYYY-MM-DD date',
    ],
    ['a time', ['showings', 0, 'time'], '7pm', 'scenario.showings[0].time: expected an HH:MM time'],
    ['an hour past 23', ['showings', 0, 'time'], '24:10', 'scenario.showings[0].time: expected an HH:MM time'],
    ['a rating above 10', ['movies', 0, 'rating'], 11, 'scenario.movies[0].rating: expected a score from 0 to 10'],
    ['an age rating', ['movies', 0, 'ageRating'], 'PG-15', 'scenario.movies[0].ageRating: expected one of'],
    ['a format', ['showings', 0, 'format'], '4DX', 'scenario.showings[0].format: expected one of'],
    ['a ticket type', ['ticketTypes', 0, 'id'], 'student', 'scenario.ticketTypes[0].id: expected one of'],
    ['a misspelt field', ['seatMaps', 0, 'aisleAfer'], [2], 'scenario.seatMaps[0]: unknown field "aisleAfer"'],
    ['a list', ['movies'], {}, 'scenario.movies: expected a list'],
  ])('reports a bad %s', (_what, path, value, message) => {
    expect(errorOf(tinyWith(path, value)).message).toContain(message);
  });

  it.each<[string, Key[], unknown, string]>([
    ['a duplicate id', ['movies', 1, 'id'], 'm1', 'scenario.movies[1].id: duplicate id "m1" (also movies[0])'],
    ['an unknown movie', ['showings', 0, 'movieId'], 'nope', 'scenario.showings[0].movieId: unknown movie "nope"'],
    [
      'an unknown theater',
      ['showings', 0, 'theaterId'],
      'nope',
      'scenario.showings[0].theaterId: unknown theater "nope"',
    ],
    [
      'an unknown seat map',
      ['theaters', 0, 'seatMapId'],
      'nope',
      'scenario.theaters[0].seatMapId: unknown seat map "nope"',
    ],
    [
      'a seat not on the map',
      ['showings', 0, 'takenSeats'],
      ['A2', 'C9'],
      'scenario.showings[0].takenSeats[1]: seat "C9" is not on seat map "s1"',
    ],
    [
      'a seat taken twice',
      ['showings', 0, 'takenSeats'],
      ['A2', 'A2'],
      'scenario.showings[0].takenSeats[1]: seat "A2" is listed twice',
    ],
    [
      'a showing before today',
      ['showings', 0, 'date'],
      '2026-11-20',
      'scenario.showings[0].date: 2026-11-20 is before today (2026-11-21)',
    ],
    [
      'an unknown premium row',
      ['seatMaps', 0, 'kinds', 'premium'],
      ['Z'],
      'scenario.seatMaps[0].kinds.premium[0]: unknown row "Z"',
    ],
    [
      'an unknown wheelchair seat',
      ['seatMaps', 0, 'kinds', 'wheelchair'],
      ['A9'],
      'scenario.seatMaps[0].kinds.wheelchair[0]: seat "A9" is not on this seat map',
    ],
    [
      'an aisle after the last seat',
      ['seatMaps', 0, 'aisleAfter'],
      [4],
      'scenario.seatMaps[0].aisleAfter[0]: an aisle after seat 4',
    ],
  ])('reports %s', (_what, path, value, message) => {
    expect(errorOf(tinyWith(path, value)).message).toContain(message);
  });

  it('reports every problem, one per issue', () => {
    const json = tinyWith(['showings', 0, 'movieId'], 'a');
    set(json, ['showings', 0, 'theaterId'], 'b');
    expect(errorOf(json).issues).toHaveLength(2);
  });

  it('checks a story', () => {
    const json = tinyWith(['story'], { text: 'Something funny', hard: [{ kind: 'cheapest' }] });
    expect(errorOf(json).message).toContain('scenario.story.hard[0].kind');
  });

  it('round-trips the default scenario', () => {
    const s = defaultScenario();
    expect(parseScenario(JSON.parse(JSON.stringify(s)))).toEqual(s);
  });
});
