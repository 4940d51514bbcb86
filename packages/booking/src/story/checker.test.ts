import { describe, expect, it } from 'vitest';
import type { SubmittedBooking } from '../engine/booking.ts';
import { BookingEngine } from '../engine/engine.ts';
import { defaultScenario } from '../scenario/default.ts';
import { candidateShowings, checkBooking } from './checker.ts';
import { type Constraint, type HardConstraint, StorySchema } from './constraints.ts';

const scenario = defaultScenario();

/** Books a showing through the engine, as a participant would. */
function book(
  showingId: string,
  seats: string[],
  tickets: Record<string, number> = { adult: seats.length },
): SubmittedBooking {
  const showing = scenario.showings.find((s) => s.id === showingId);
  if (!showing) throw new Error(`no showing ${showingId}`);
  const engine = new BookingEngine(scenario);
  const go = (tool: string, params: Record<string, unknown> = {}) => engine.apply(tool, params, 'participant');
  for (const itemId of [showing.movieId, showing.theaterId, showing.date, showing.id]) {
    go('select', { itemId });
    go('next');
  }
  for (const itemId of seats) go('select', { itemId });
  go('next');
  for (const [typeId, quantity] of Object.entries(tickets)) go('setQuantity', { typeId, quantity });
  go('next');
  go('next');
  const booking = engine.submitted();
  if (!booking) throw new Error('not submitted');
  return booking;
}

// Orbital Drift (Sci-Fi, Thriller; 8.3; PG-13; 148 min) at Riverside IMAX (4.2 km), Sat 21 Nov 13:00–15:28, IMAX.
const MATINEE = 'sh-riverside-1121-1300';
const base = book(MATINEE, ['A1', 'A2']);

const hard = (constraint: HardConstraint, booking = base) =>
  checkBooking(scenario, booking, StorySchema.parse({ text: 'x', hard: [constraint] }));
const ok = (constraint: HardConstraint, booking = base) => hard(constraint, booking).hard[0]?.ok;
const soft = (constraint: Constraint, booking = base, hardOnes: HardConstraint[] = []) =>
  checkBooking(scenario, booking, StorySchema.parse({ text: 'x', hard: hardOnes, soft: [constraint] })).soft[0];

describe('checkBooking: hard constraints', () => {
  it('date', () => {
    expect(ok({ kind: 'date', dates: ['2026-11-21', '2026-11-22'] })).toBe(true);
    expect(ok({ kind: 'date', dates: ['2026-11-22'] })).toBe(false);
  });

  it('startTime, bounds inclusive', () => {
    expect(ok({ kind: 'startTime', after: '12:00', before: '13:00' })).toBe(true);
    expect(ok({ kind: 'startTime', after: '18:00' })).toBe(false);
    expect(hard({ kind: 'startTime', after: '18:00' }).hard[0]?.detail).toBe(
      'starts at 13:00; wanted at or after 18:00',
    );
  });

  it('endTime, counting past midnight', () => {
    expect(ok({ kind: 'endTime', before: '16:00' })).toBe(true);
    expect(ok({ kind: 'endTime', before: '15:00' })).toBe(false);
    const late = book('sh-riverside-1121-2240', ['A1']); // ends 01:08 the next day
    expect(ok({ kind: 'endTime', before: '23:59' }, late)).toBe(false);
    expect(ok({ kind: 'endTime', before: '25:30' }, late)).toBe(true);
    expect(hard({ kind: 'endTime', before: '23:59' }, late).hard[0]?.detail).toContain('01:08 (next day)');
  });

  it('genre include and exclude, case-insensitive, against all the movie’s genres', () => {
    expect(ok({ kind: 'genre', include: ['thriller', 'Comedy'] })).toBe(true);
    expect(ok({ kind: 'genre', include: ['Comedy'] })).toBe(false);
    expect(ok({ kind: 'genre', exclude: ['Horror'] })).toBe(true);
    expect(ok({ kind: 'genre', exclude: ['Thriller'] })).toBe(false);
  });

  it('title by title or id', () => {
    expect(ok({ kind: 'title', is: ['orbital drift'] })).toBe(true);
    expect(ok({ kind: 'title', is: ['m-orbital-drift'] })).toBe(true);
    expect(ok({ kind: 'title', not: ['Orbital Drift'] })).toBe(false);
    expect(ok({ kind: 'title', is: ['Encore'] })).toBe(false);
  });

  it('rating', () => {
    expect(ok({ kind: 'rating', min: 8.3 })).toBe(true);
    expect(ok({ kind: 'rating', min: 8.4 })).toBe(false);
  });

  it('ageRating', () => {
    expect(ok({ kind: 'ageRating', allowed: ['G', 'PG', 'PG-13'] })).toBe(true);
    expect(ok({ kind: 'ageRating', allowed: ['G', 'PG'] })).toBe(false);
  });

  it('runtime, both bounds inclusive', () => {
    const minutes = defaultScenario().movies.find((m) => m.id === 'm-orbital-drift')?.durationMinutes ?? 0;
    expect(ok({ kind: 'runtime', maxMinutes: minutes })).toBe(true);
    expect(ok({ kind: 'runtime', maxMinutes: minutes - 1 })).toBe(false);
    expect(ok({ kind: 'runtime', minMinutes: minutes })).toBe(true);
    expect(ok({ kind: 'runtime', minMinutes: minutes + 1 })).toBe(false);
    expect(hard({ kind: 'runtime', maxMinutes: 90 }).hard[0]?.detail).toContain(`runs ${minutes} min`);
  });

  it('distance', () => {
    expect(ok({ kind: 'distance', maxKm: 4.2 })).toBe(true);
    expect(ok({ kind: 'distance', maxKm: 3 })).toBe(false);
  });

  it('theater by id, whole name, or a shorter form of the name', () => {
    expect(ok({ kind: 'theater', is: ['t-riverside'] })).toBe(true);
    expect(ok({ kind: 'theater', is: ['riverside imax'] })).toBe(true);
    expect(ok({ kind: 'theater', is: ['Riverside'] })).toBe(true);
    expect(ok({ kind: 'theater', is: ['the Riverside'] })).toBe(true);
    expect(ok({ kind: 'theater', is: ['Starlight Multiplex', 'Riverside IMAX'] })).toBe(true);
    expect(ok({ kind: 'theater', is: ['Starlight Multiplex'] })).toBe(false);
    // Every word must be the theater's: "Riverside Cinema" is another name.
    expect(ok({ kind: 'theater', is: ['Riverside Cinema'] })).toBe(false);
    expect(ok({ kind: 'theater', not: ['Riverside'] })).toBe(false);
    expect(ok({ kind: 'theater', not: ['Grand Central Cinema'] })).toBe(true);
    expect(hard({ kind: 'theater', is: ['Lumen Arthouse'] }).hard[0]?.detail).toBe(
      'at Riverside IMAX; wanted one of Lumen Arthouse',
    );
  });

  it('format', () => {
    expect(ok({ kind: 'format', is: ['IMAX', '3D'] })).toBe(true);
    expect(ok({ kind: 'format', not: ['IMAX'] })).toBe(false);
    expect(ok({ kind: 'format', is: ['Standard'] })).toBe(false);
  });

  it('seatCount', () => {
    expect(ok({ kind: 'seatCount', count: 2 })).toBe(true);
    expect(ok({ kind: 'seatCount', count: 3 })).toBe(false);
  });

  it('adjacent: one row, no gap, no aisle between', () => {
    expect(ok({ kind: 'adjacent' })).toBe(true);
    expect(ok({ kind: 'adjacent' }, book(MATINEE, ['A1', 'A3']))).toBe(false);
    expect(ok({ kind: 'adjacent' }, book(MATINEE, ['A1', 'B1']))).toBe(false);
    const split = hard({ kind: 'adjacent' }, book(MATINEE, ['A4', 'A5'])).hard[0];
    expect(split).toMatchObject({ ok: false, detail: 'A4, A5 are split by the aisle after seat 4' });
    expect(ok({ kind: 'adjacent' }, book(MATINEE, ['F10', 'F9', 'F11']))).toBe(true);
  });

  it('rows: allowed labels, not the first or last rows', () => {
    expect(ok({ kind: 'rows', allowed: ['a', 'B'] })).toBe(true);
    expect(ok({ kind: 'rows', allowed: ['F'] })).toBe(false);
    expect(ok({ kind: 'rows', notFirst: 1 })).toBe(false);
    expect(ok({ kind: 'rows', notFirst: 3 }, book(MATINEE, ['F9']))).toBe(true);
    expect(ok({ kind: 'rows', notLast: 1 }, book(MATINEE, ['L1']))).toBe(false);
    expect(ok({ kind: 'rows', notLast: 6 }, book(MATINEE, ['F9']))).toBe(true);
    expect(ok({ kind: 'rows', notLast: 7 }, book(MATINEE, ['F9']))).toBe(false);
    // "The last two rows": K and L of a twelve-row room.
    expect(ok({ kind: 'rows', last: 2 }, book(MATINEE, ['L1']))).toBe(true);
    expect(ok({ kind: 'rows', last: 2 }, book(MATINEE, ['K5']))).toBe(true);
    expect(ok({ kind: 'rows', last: 2 }, book(MATINEE, ['J5']))).toBe(false);
  });

  it('rowMiddle: every seat in the middle half of its row (Riverside has 18 a row: seats 6–13)', () => {
    expect(ok({ kind: 'rowMiddle' }, book(MATINEE, ['F9', 'F10']))).toBe(true);
    expect(ok({ kind: 'rowMiddle' }, book(MATINEE, ['C6']))).toBe(true);
    expect(ok({ kind: 'rowMiddle' }, book(MATINEE, ['C13']))).toBe(true);
    expect(ok({ kind: 'rowMiddle' }, book(MATINEE, ['C5']))).toBe(false);
    expect(ok({ kind: 'rowMiddle' }, book(MATINEE, ['C14']))).toBe(false);
    // One seat near an end is enough to break it.
    expect(ok({ kind: 'rowMiddle' }, book(MATINEE, ['C13', 'C14']))).toBe(false);
    expect(hard({ kind: 'rowMiddle' }).hard[0]?.detail).toBe(
      "A1, A2; wanted seats 6–13 of each row's 18; at or near an end: A1, A2",
    );
    // Every wheelchair space of the room is at an end of row E.
    const space = book(MATINEE, ['E2']);
    expect(ok({ kind: 'seatKind', seatKind: 'wheelchair', count: 1 }, space)).toBe(true);
    expect(ok({ kind: 'rowMiddle' }, space)).toBe(false);
  });

  it('rowMiddle used softly scores 1 or 0', () => {
    expect(soft({ kind: 'rowMiddle' }, book(MATINEE, ['F9', 'F10']))?.score).toBe(1);
    expect(soft({ kind: 'rowMiddle' })?.score).toBe(0);
  });

  it('seatKind: all seats of the kind, or at least a count', () => {
    expect(ok({ kind: 'seatKind', seatKind: 'premium' }, book(MATINEE, ['G5', 'G6']))).toBe(true);
    expect(ok({ kind: 'seatKind', seatKind: 'premium' })).toBe(false);
    const wheelchair = book(MATINEE, ['E2', 'E3']);
    expect(ok({ kind: 'seatKind', seatKind: 'wheelchair', count: 1 }, wheelchair)).toBe(true);
    expect(ok({ kind: 'seatKind', seatKind: 'wheelchair', count: 2 }, wheelchair)).toBe(false);
  });

  it('ticketMix: exactly the named quantities, the others none', () => {
    expect(ok({ kind: 'ticketMix', adult: 2 })).toBe(true);
    expect(ok({ kind: 'ticketMix', adult: 1, child: 1 })).toBe(false);
    const family = book(MATINEE, ['A1', 'A2', 'A3'], { adult: 1, child: 2 });
    expect(ok({ kind: 'ticketMix', adult: 1, child: 2 }, family)).toBe(true);
    expect(ok({ kind: 'ticketMix', adult: 1 }, family)).toBe(false);
  });

  it('price: the total, surcharges included', () => {
    expect(base.total).toBe(39);
    expect(ok({ kind: 'price', maxTotal: 39 })).toBe(true);
    expect(ok({ kind: 'price', maxTotal: 38.99 })).toBe(false);
    expect(book(MATINEE, ['G5', 'G6']).total).toBe(45);
  });

  it('satisfied only when every hard constraint holds', () => {
    const story = (h: HardConstraint[]) => StorySchema.parse({ text: 'x', hard: h });
    expect(checkBooking(scenario, base, story([{ kind: 'seatCount', count: 2 }, { kind: 'adjacent' }])).satisfied).toBe(
      true,
    );
    expect(
      checkBooking(
        scenario,
        base,
        story([
          { kind: 'seatCount', count: 2 },
          { kind: 'rating', min: 9 },
        ]),
      ).satisfied,
    ).toBe(false);
    expect(checkBooking(scenario, base, story([])).satisfied).toBe(true);
  });

  it('refuses a booking from another scenario', () => {
    expect(() =>
      checkBooking(scenario, { ...base, showingId: 'sh-elsewhere' }, StorySchema.parse({ text: 'x' })),
    ).toThrow(/not in scenario/);
  });
});

describe('checkBooking: soft constraints', () => {
  const orbitalToday: HardConstraint[] = [
    { kind: 'title', is: ['Orbital Drift'] },
    { kind: 'date', dates: ['2026-11-21'] },
  ];

  it('a hard-style constraint used softly scores 1 or 0', () => {
    expect(soft({ kind: 'format', is: ['IMAX'] })?.score).toBe(1);
    expect(soft({ kind: 'format', is: ['3D'] })?.score).toBe(0);
  });

  it('a soft evening scores how typical the start is: 18:45 beats 22:40, and before 17:00 scores 0', () => {
    const evening = { kind: 'startTime' as const, after: '17:00' };
    const typical = soft(evening, book('sh-starlight-1121-1845', ['A1']))?.score ?? 0;
    const late = soft(evening, book('sh-riverside-1121-2240', ['A1']))?.score ?? 1;
    expect(typical).toBeGreaterThan(0.9);
    expect(late).toBeLessThan(0.5);
    expect(late).toBeGreaterThan(0);
    expect(soft(evening, book('sh-riverside-1121-1410', ['A1']))?.score).toBe(0);
    // A plain clock window still scores 1 inside.
    expect(soft({ kind: 'startTime', after: '18:00' }, book('sh-riverside-1121-2240', ['A1']))?.score).toBe(1);
  });

  it('cheapest: 1 for the cheapest option, lower for dearer ones', () => {
    const standard = book('sh-riverside-1121-1410', ['A1', 'A2']); // no IMAX surcharge, standard seats
    expect(soft({ kind: 'cheapest' }, standard, orbitalToday)?.score).toBe(1);
    expect(soft({ kind: 'cheapest' }, base, orbitalToday)?.score).toBeLessThan(1);
    const premiumImax = book(MATINEE, ['G5', 'G6']);
    expect(soft({ kind: 'cheapest' }, premiumImax, orbitalToday)?.score).toBe(0);
  });

  it('closest: the nearest theater scores 1', () => {
    expect(soft({ kind: 'closest' }, base, orbitalToday)?.score).toBe(1); // Riverside 4.2 km vs Starlight 9.6 km
    const far = book('sh-starlight-1121-1200', ['A1']);
    expect(soft({ kind: 'closest' }, far, orbitalToday)?.score).toBe(0);
  });

  it('earliest: against every option, days first; a later day scores below an earlier one', () => {
    const orbital: HardConstraint[] = [{ kind: 'title', is: ['Orbital Drift'] }];
    const saturday = book('sh-starlight-1121-1200', ['A1']);
    const sunday = book('sh-starlight-1122-1200', ['A1']);
    expect(soft({ kind: 'earliest' }, saturday, orbital)?.score).toBe(1);
    expect(soft({ kind: 'earliest' }, sunday, orbital)?.score).toBeLessThan(1);
  });

  it('earliest and latest on one day: against the options on that day', () => {
    const late = book('sh-riverside-1121-2240', ['A1']);
    const first = book('sh-starlight-1121-1200', ['A1']);
    expect(soft({ kind: 'earliest' }, first, orbitalToday)?.score).toBe(1);
    expect(soft({ kind: 'latest' }, late, orbitalToday)?.score).toBe(1);
    expect(soft({ kind: 'earliest' }, late, orbitalToday)?.score).toBe(0);
    expect(soft({ kind: 'latest' }, base, orbitalToday)?.score).toBeGreaterThan(0);
    expect(soft({ kind: 'latest' }, base, orbitalToday)?.score).toBeLessThan(1);
  });

  it('centered: middle seats beat corner seats', () => {
    const middle = soft({ kind: 'centered' }, book(MATINEE, ['F9', 'F10']))?.score ?? 0;
    const corner = soft({ kind: 'centered' }, book(MATINEE, ['A1', 'A2']))?.score ?? 1;
    expect(middle).toBeGreaterThan(0.9);
    expect(corner).toBeLessThan(0.2);
  });

  it('highestRated: the best-rated movie among the options scores 1', () => {
    const scifi: HardConstraint[] = [
      { kind: 'date', dates: ['2026-11-21'] },
      { kind: 'genre', include: ['Sci-Fi'] },
    ];
    expect(soft({ kind: 'highestRated' }, base, scifi)?.score).toBe(1); // 8.3 vs Midnight Static 5.9
    const static_ = book('sh-starlight-1121-2255', ['A1']);
    expect(soft({ kind: 'highestRated' }, static_, scifi)?.score).toBe(0);
  });
});

describe('candidateShowings', () => {
  it('keeps the showings the showing-level hard constraints allow, skipping full ones', () => {
    const story = StorySchema.parse({
      text: 'Orbital Drift in IMAX today',
      hard: [
        { kind: 'title', is: ['Orbital Drift'] },
        { kind: 'date', dates: ['2026-11-21'] },
        { kind: 'format', is: ['IMAX'] },
      ],
    });
    expect(candidateShowings(scenario, story).map((s) => s.id)).toEqual([
      'sh-starlight-1121-1200',
      'sh-riverside-1121-1300',
      'sh-riverside-1121-1630',
      'sh-starlight-1121-1845',
      'sh-starlight-1121-2200',
      'sh-riverside-1121-2240',
    ]); // sh-riverside-1121-1930 is sold out
  });

  it('keeps only the named theater, by a shorter form of its name too', () => {
    const story = StorySchema.parse({
      text: 'Orbital Drift in IMAX today at Starlight',
      hard: [
        { kind: 'title', is: ['Orbital Drift'] },
        { kind: 'date', dates: ['2026-11-21'] },
        { kind: 'theater', is: ['Starlight'] },
      ],
    });
    const ids = candidateShowings(scenario, story).map((s) => s.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((id) => id.startsWith('sh-starlight-'))).toBe(true);
    const nowhere = { ...story, hard: [...story.hard.slice(0, 2), { kind: 'theater' as const, is: ['Lumen'] }] };
    expect(candidateShowings(scenario, nowhere)).toEqual([]);
  });

  it('needs enough free seats for the seat count and the wanted seat kind', () => {
    const all = candidateShowings(scenario, StorySchema.parse({ text: 'x' })).length;
    expect(all).toBe(scenario.showings.length - 1);
    const four = StorySchema.parse({ text: 'x', hard: [{ kind: 'seatKind', seatKind: 'wheelchair', count: 3 }] });
    const candidates = candidateShowings(scenario, four);
    expect(candidates.length).toBeGreaterThan(0);
    expect(candidates.every((s) => s.theaterId !== 't-lumen')).toBe(true); // Lumen has only two wheelchair spaces
  });

  it('needs a free seat in the middle of a row for rowMiddle', () => {
    // Every seat of the matinee's rows 6–13 taken: only seats near the ends are left.
    const riverside = scenario.seatMaps.find((m) => m.id === 'sm-riverside');
    if (!riverside) throw new Error('no Riverside map');
    const middle = riverside.rows.flatMap((row) => Array.from({ length: 8 }, (_, i) => `${row}${i + 6}`));
    const ends = {
      ...scenario,
      showings: scenario.showings.map((s) => (s.id === MATINEE ? { ...s, takenSeats: middle } : s)),
    };
    const story = (hard: HardConstraint[]) => StorySchema.parse({ text: 'x', hard });
    const film: HardConstraint = { kind: 'title', is: ['Orbital Drift'] };
    expect(candidateShowings(ends, story([film])).map((s) => s.id)).toContain(MATINEE);
    const ids = candidateShowings(ends, story([film, { kind: 'rowMiddle' }])).map((s) => s.id);
    expect(ids).not.toContain(MATINEE);
    expect(ids).toContain('sh-riverside-1121-1630');
  });
});
