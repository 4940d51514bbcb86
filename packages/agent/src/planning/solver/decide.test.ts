import { describe, expect, it } from 'vitest';
import { decideStage } from './decide.ts';
import { engineAt, model, ORBITAL_SUNDAY, specOf } from './testing.ts';
import type { RankedOption, StageDecision } from './types.ts';

function options(decision: StageDecision): RankedOption[] {
  if (decision.kind !== 'options') throw new Error(`expected options, got ${JSON.stringify(decision)}`);
  return decision.options;
}

function deadEnd(decision: StageDecision) {
  if (decision.kind !== 'dead-end') throw new Error(`expected a dead-end, got ${JSON.stringify(decision)}`);
  return decision;
}

const ids = (decision: StageDecision) => options(decision).map((o) => o.itemId);

describe('choice stages', () => {
  it('"in the evening" prefers a typical evening start, hard or soft: 20:10 over 17:40', () => {
    // Second Helpings at Grand Central on Sun 22 Nov: 17:40 and 20:10.
    const spec = specOf(engineAt(['m-second-helpings', 't-grand', '2026-11-22']));
    const evening = { kind: 'startTime' as const, after: '17:00' };
    expect(ids(decideStage(spec, model([], [evening])))).toEqual(['sh-grand-1122-2010', 'sh-grand-1122-1740']);
    expect(options(decideStage(spec, model([], [evening])))[0]?.reason).toContain('within the typical evening hours');
    expect(ids(decideStage(spec, model([evening])))).toEqual(['sh-grand-1122-2010', 'sh-grand-1122-1740']);
    expect(options(decideStage(spec, model([evening])))[0]?.reason).toContain('within the typical evening hours');
    // A plain clock bound ranks nothing inside it: catalog order.
    expect(ids(decideStage(spec, model([{ kind: 'startTime', after: '17:30' }])))).toEqual([
      'sh-grand-1122-1740',
      'sh-grand-1122-2010',
    ]);
  });

  it('keeps only the movies meeting the hard constraints, best rated first when that is wished', () => {
    const spec = specOf(engineAt([]));
    const decision = decideStage(
      spec,
      model(
        [
          { kind: 'genre', include: ['family'] },
          { kind: 'ageRating', allowed: ['G', 'PG'] },
        ],
        [{ kind: 'highestRated' }],
      ),
    );
    expect(ids(decision)).toEqual(['m-paper-lanterns', 'm-pip-and-the-comet']);
    expect(options(decision)[0]?.reason).toContain('the highest rated here (7.9)');
  });

  it('says a title that no movie on the list carries has no showings (a film not showing yet)', () => {
    const decision = deadEnd(decideStage(specOf(engineAt([])), model([{ kind: 'title', is: ['Winter Kings'] }])));
    expect(decision.summary).toMatch(
      /^No movie titled "Winter Kings": Winter Kings has no showings; the movies showing are /,
    );
    expect(decision.failing.map((f) => f.constraint.kind)).toEqual(['title']);
  });

  it('names what is showing, not "no showings", when the title is listed but another wish rules it out', () => {
    const decision = deadEnd(
      decideStage(
        specOf(engineAt([])),
        model([
          { kind: 'title', is: ['Orbital Drift'] },
          { kind: 'genre', include: ['Comedy'] },
        ]),
      ),
    );
    expect(decision.summary).not.toContain('no showings');
  });

  it('without any wish lists every movie, the better rated first, then by title', () => {
    const spec = specOf(engineAt([]));
    expect(ids(decideStage(spec, model([])))).toEqual([
      'm-last-cartographer',
      'm-orbital-drift',
      'm-deep-blue-cities',
      'm-paper-lanterns',
      'm-encore',
      'm-quiet-harbor',
      'm-night-ledger',
      'm-pip-and-the-comet',
      'm-courtside',
      'm-iron-meridian',
      'm-love-in-lisbon',
      'm-second-helpings',
      'm-hollow-house',
      'm-midnight-static',
    ]);
  });

  it('breaks ties by what the films show, not by the order a host lists them in or a sort of the view', () => {
    const engine = engineAt([]);
    engine.apply('sort', { field: 'rating', order: 'asc' }, 'agent');
    const spec = specOf(engine);
    const ranked = ids(decideStage(spec, model([])));
    // The same list shuffled, as a host that orders its films per session sends it.
    const shuffled = { ...spec, items: [...spec.items].reverse(), visibleItems: [...spec.visibleItems].reverse() };
    expect(ids(decideStage(shuffled, model([])))).toEqual(ranked);
    // Films rated alike go by title.
    const alike = {
      ...spec,
      items: spec.items.map((i) => ({ ...i, rating: 7 })),
      visibleItems: [...spec.visibleItems].reverse(),
    };
    const titles = new Map(spec.items.map((i) => [i.id, String(i.title)]));
    const byTitle = ids(decideStage(alike, model([]))).map((id) => titles.get(id));
    expect(byTitle).toEqual([...byTitle].sort((a, b) => (a ?? '').localeCompare(b ?? '')));
    expect(byTitle[0]).toBe('Courtside');
  });

  it('ranks theaters by distance for "closest" and drops those beyond a distance limit', () => {
    const spec = specOf(engineAt(['m-paper-lanterns']));
    expect(ids(decideStage(spec, model([], [{ kind: 'closest' }])))).toEqual([
      't-grand',
      't-riverside',
      't-starlight',
      't-oakwood',
    ]);
    expect(ids(decideStage(spec, model([{ kind: 'distance', maxKm: 5 }])))).toEqual(['t-grand', 't-riverside']);
  });

  it('prefers theaters advertising a wanted format', () => {
    const spec = specOf(engineAt(['m-paper-lanterns']));
    const ranked = options(decideStage(spec, model([], [{ kind: 'format', is: ['3D'] }])));
    expect(ranked.at(-1)?.itemId).toBe('t-oakwood');
    expect(ranked[0]?.reason).toContain('advertises 3D');
  });

  it('never offers a disabled day, and takes the earliest for "earliest"', () => {
    const spec = specOf(engineAt(['m-midnight-static']));
    const theater = options(decideStage(spec, model([])))[0]?.itemId ?? '';
    const days = specOf(engineAt(['m-midnight-static', theater]));
    const enabled = days.visibleItems.filter((i) => !i.isDisabled).map((i) => i.id);
    expect(enabled.length).toBeLessThan(days.visibleItems.length);
    expect(ids(decideStage(days, model([], [{ kind: 'earliest' }])))).toEqual(enabled);
  });

  it('judges start, end (past midnight) and format at the time stage', () => {
    const spec = specOf(engineAt(ORBITAL_SUNDAY));
    const evening = decideStage(
      spec,
      model([
        { kind: 'startTime', after: '18:00' },
        { kind: 'endTime', before: '22:30' },
        { kind: 'format', is: ['IMAX'] },
      ]),
    );
    expect(ids(evening)).toEqual(['sh-riverside-1122-1930']);
    expect(options(evening)[0]?.reason).toContain('ends 21:58, by your 22:30 limit');
    // The 22:40 show ends at 01:08 the next day: after 23:30, before 25:30.
    const late = (before: string) =>
      decideStage(
        spec,
        model([
          { kind: 'startTime', after: '22:00' },
          { kind: 'endTime', before },
        ]),
      );
    expect(ids(late('25:30'))).toEqual(['sh-riverside-1122-2240']);
    expect(deadEnd(late('23:30')).failing[1]?.detail).toBe(
      'no showtime on Sun 22 Nov ending by 23:30: among those starting at or after 22:00, the earliest ends at 01:08 (next day)',
    );
  });

  it('orders showtimes by the time and format wishes', () => {
    const spec = specOf(engineAt(ORBITAL_SUNDAY));
    expect(ids(decideStage(spec, model([], [{ kind: 'latest' }])))[0]).toBe('sh-riverside-1122-2240');
    expect(ids(decideStage(spec, model([], [{ kind: 'earliest' }])))[0]).toBe('sh-riverside-1122-1300');
    expect(ids(decideStage(spec, model([], [{ kind: 'cheapest' }])))[0]).toBe('sh-riverside-1122-1410');
    const imaxAfterSix = ids(
      decideStage(
        spec,
        model(
          [],
          [
            { kind: 'format', is: ['IMAX'] },
            { kind: 'startTime', after: '18:00' },
          ],
        ),
      ),
    );
    expect(imaxAfterSix.slice(0, 2)).toEqual(['sh-riverside-1122-1930', 'sh-riverside-1122-2240']);
  });
});

describe('dead-ends', () => {
  it('a 3D-only wish for a movie without 3D showings', () => {
    const spec = specOf(engineAt(ORBITAL_SUNDAY));
    const end = deadEnd(decideStage(spec, model([{ kind: 'format', is: ['3D'] }])));
    expect(end.stage).toBe('time');
    expect(end.failing.map((f) => f.constraint.kind)).toEqual(['format']);
    expect(end.summary).toBe('No showtime on Sun 22 Nov in 3D: all are IMAX or Standard.');
  });

  it('names both constraints when start time and format only clash together', () => {
    // Iron Meridian at Riverside IMAX: 11:20 IMAX, 17:15 3D, 21:15 3D.
    const spec = specOf(engineAt(['m-iron-meridian', 't-riverside', '2026-11-22']));
    const end = deadEnd(
      decideStage(
        spec,
        model([
          { kind: 'startTime', after: '18:00' },
          { kind: 'format', is: ['IMAX'] },
        ]),
      ),
    );
    expect(end.failing.map((f) => f.constraint.kind)).toEqual(['startTime', 'format']);
    expect(end.failing[0]?.detail).toBe(
      'no showtime on Sun 22 Nov starting at or after 18:00: among those in IMAX, the latest starts at 11:20',
    );
    expect(end.summary).toBe(
      'No showtime on Sun 22 Nov starting at or after 18:00, in IMAX: among those in IMAX, the latest starts at 11:20.',
    );
  });

  it('too few seats left at every showtime', () => {
    const spec = specOf(engineAt(ORBITAL_SUNDAY));
    const end = deadEnd(decideStage(spec, model([{ kind: 'seatCount', count: 200 }])));
    expect(end.failing[0]?.detail).toContain('the most seats left is 192');
  });

  it('a rating or distance nobody offers, with what is on offer', () => {
    const movies = deadEnd(decideStage(specOf(engineAt([])), model([{ kind: 'rating', min: 9 }])));
    expect(movies.summary).toBe('No movie rated at least 9: the highest rating is 8.5.');
    const theaters = deadEnd(
      decideStage(specOf(engineAt(['m-orbital-drift'])), model([{ kind: 'distance', maxKm: 1 }])),
    );
    expect(theaters.summary).toBe('No theater showing Orbital Drift within 1 km: the nearest is 4.2 km away.');
  });

  it('says when a filter hides options', () => {
    const engine = engineAt([]);
    engine.apply('filter', { field: 'genre', operator: 'eq', value: 'Horror' }, 'agent');
    const end = deadEnd(decideStage(specOf(engine), model([{ kind: 'title', is: ['Orbital Drift'] }])));
    expect(end.summary).toContain('hidden by the current filter');
  });
});

describe('a film chosen before a new wish', () => {
  it('is judged on its genres and ratings as the movie stage showed them, and sent back to the movie stage', () => {
    // Night Ledger (Thriller, Crime; R) chosen, then "no thrillers, a comedy instead" on the time stage.
    const movieStage = specOf(engineAt([]));
    const nightLedger = movieStage.items.find((i) => i.id === 'm-night-ledger');
    const spec = specOf(engineAt(['m-night-ledger', 't-grand', '2026-11-22']));
    const wishes = model([{ kind: 'genre', include: ['Comedy'], exclude: ['Thriller'] }]);
    const decision = deadEnd(decideStage(spec, wishes, { movie: nightLedger }));
    expect(decision.backTo).toBe('movie');
    expect(decision.summary).toContain('Thriller');
    // Without the film's item (a host the agent never saw the movie stage of), the summary alone decides.
    expect(decideStage(spec, wishes).kind).not.toBe('dead-end');
    // A film that fits the new wish stands.
    const pip = movieStage.items.find((i) => i.id === 'm-pip-and-the-comet');
    const pipSpec = specOf(engineAt(['m-pip-and-the-comet', 't-grand', '2026-11-22']));
    expect(decideStage(pipSpec, wishes, { movie: pip }).kind).toBe('options');
  });
});

describe('a theater chosen before a new wish', () => {
  it('is judged on its distance as the theater stage showed it, and sent back to the theater stage', () => {
    // Oakwood chosen, then "that's miles away, anywhere within 5 km instead" on the date stage.
    const theaterStage = specOf(engineAt(['m-paper-lanterns']));
    const item = (id: string) => theaterStage.items.find((i) => i.id === id);
    const wishes = model([{ kind: 'distance', maxKm: 5 }]);
    const far = specOf(engineAt(['m-paper-lanterns', 't-oakwood']));
    const decision = deadEnd(decideStage(far, wishes, { theater: item('t-oakwood') }));
    expect(decision.backTo).toBe('theater');
    expect(decision.summary).toMatch(/km away, beyond your 5 km/);
    // Without the theater's item the summary, which shows no distance, decides.
    expect(decideStage(far, wishes).kind).not.toBe('dead-end');
    // A theater within the distance stands; so does one the page no longer holds.
    const near = specOf(engineAt(['m-paper-lanterns', 't-grand']));
    expect(decideStage(near, wishes, { theater: item('t-grand') }).kind).toBe('options');
    expect(decideStage(near, wishes, { theater: item('t-oakwood') }).kind).toBe('options');
  });
});
