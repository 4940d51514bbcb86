import { BookingEngine, checkBooking, type Story, type SubmittedBooking } from '@usher/booking';
import { describe, expect, it } from 'vitest';
import { decideStage } from './decide.ts';
import { scenario, specOf } from './testing.ts';
import type { PreferenceModel } from './types.ts';

/*
 * End to end on the real default scenario: at every stage take the solver's best option
 * (select/next, seats, setQuantity, confirm) and submit; on a dead-end go back and take the
 * next option of the stage before, as a planner does. The checker must find every hard
 * constraint met.
 */

interface Walk {
  booking: SubmittedBooking | null;
  /** The summaries of the dead-ends met on the way. */
  deadEnds: string[];
}

const fork = (engine: BookingEngine) => BookingEngine.restore(scenario, engine.toJSON());
const act = (engine: BookingEngine, tool: string, params: Record<string, unknown> = {}) =>
  engine.apply(tool, params, 'agent');

/** Depth-first, best option first, at most `width` options per stage. */
function walk(engine: BookingEngine, model: PreferenceModel, walked: Walk, width = 4): SubmittedBooking | null {
  const spec = specOf(engine);
  const decision = decideStage(spec, model);
  const attempt = (step: (e: BookingEngine) => void) => {
    const next = fork(engine);
    step(next);
    return next.view().uiSpec === null ? next.submitted() : walk(next, model, walked, width);
  };
  switch (decision.kind) {
    case 'options':
      for (const option of decision.options.slice(0, width)) {
        const booked = attempt((e) => {
          act(e, 'select', { itemId: option.itemId });
          act(e, 'next');
        });
        if (booked) return booked;
      }
      return null;
    case 'seats':
      for (const set of decision.options.slice(0, width)) {
        const booked = attempt((e) => {
          for (const itemId of set.toSelect) act(e, 'select', { itemId });
          act(e, 'next');
        });
        if (booked) return booked;
      }
      return null;
    case 'tickets':
      return attempt((e) => {
        const entries = Object.entries(decision.quantities).sort((a, b) => a[1] - b[1]);
        for (const [typeId, quantity] of entries) act(e, 'setQuantity', { typeId, quantity });
        act(e, 'next');
      });
    case 'confirm':
      return attempt((e) => act(e, 'next'));
    case 'dead-end':
      walked.deadEnds.push(`${decision.stage}: ${decision.summary}`);
      return null;
  }
}

function book(story: Omit<Story, 'text'>): Walk & { check: ReturnType<typeof checkBooking> } {
  const walked: Walk = { booking: null, deadEnds: [] };
  walked.booking = walk(new BookingEngine(scenario), story, walked);
  if (!walked.booking) throw new Error(`no booking; dead-ends:\n${walked.deadEnds.join('\n')}`);
  return { ...walked, check: checkBooking(scenario, walked.booking, { text: 'story', ...story }) };
}

const failed = (check: ReturnType<typeof checkBooking>) => check.hard.filter((h) => !h.ok);

describe('walking the default scenario with the solver', () => {
  it('date night: Orbital Drift in IMAX on Sunday evening, two together, not too close to the screen', () => {
    const result = book({
      hard: [
        { kind: 'title', is: ['Orbital Drift'] },
        { kind: 'format', is: ['IMAX'] },
        { kind: 'date', dates: ['2026-11-22'] },
        { kind: 'startTime', after: '18:00' },
        { kind: 'endTime', before: '22:30' },
        { kind: 'seatCount', count: 2 },
        { kind: 'adjacent' },
        { kind: 'rows', notFirst: 3 },
      ],
      soft: [{ kind: 'centered' }, { kind: 'closest' }],
    });
    expect(failed(result.check)).toEqual([]);
    expect(result.deadEnds).toEqual([]);
    expect(result.booking).toMatchObject({ theaterId: 't-riverside', time: '19:30' });
    expect(result.check.soft.map((s) => s.score)).toEqual([expect.any(Number), 1]);
    expect(result.check.soft[0]?.score).toBeGreaterThan(0.8);
  });

  it('a family outing in 3D after four: the greedy first choices dead-end, going back finds one', () => {
    const result = book({
      hard: [
        { kind: 'genre', include: ['Family'] },
        { kind: 'ageRating', allowed: ['G', 'PG'] },
        { kind: 'format', is: ['3D'] },
        { kind: 'startTime', after: '16:00' },
        { kind: 'ticketMix', adult: 2, child: 2 },
        { kind: 'adjacent' },
      ],
      soft: [{ kind: 'highestRated' }, { kind: 'closest' }, { kind: 'earliest' }, { kind: 'cheapest' }],
    });
    expect(failed(result.check)).toEqual([]);
    expect(result.deadEnds.length).toBeGreaterThan(0);
    expect(result.deadEnds[0]).toMatch(/^time: No showtime on Sat 21 Nov/);
    expect(result.booking?.tickets.map((t) => [t.typeId, t.quantity])).toEqual([
      ['adult', 2],
      ['child', 2],
    ]);
  });

  it('a wheelchair user and a companion nearby, on a budget', () => {
    const result = book({
      hard: [
        { kind: 'genre', include: ['Drama'] },
        { kind: 'distance', maxKm: 5 },
        { kind: 'seatCount', count: 2 },
        { kind: 'adjacent' },
        { kind: 'seatKind', seatKind: 'wheelchair', count: 1 },
        { kind: 'price', maxTotal: 40 },
      ],
      soft: [{ kind: 'earliest' }, { kind: 'cheapest' }, { kind: 'highestRated' }],
    });
    expect(failed(result.check)).toEqual([]);
    expect(result.booking?.seats.some((s) => s.kind === 'wheelchair')).toBe(true);
  });

  it('three on a weekday, premium seats, home before ten', () => {
    const result = book({
      hard: [
        { kind: 'date', dates: ['2026-11-24'] },
        { kind: 'format', not: ['3D'] },
        { kind: 'endTime', before: '22:00' },
        { kind: 'ticketMix', adult: 1, senior: 2 },
        { kind: 'adjacent' },
        { kind: 'seatKind', seatKind: 'premium' },
        { kind: 'rating', min: 7.5 },
      ],
      soft: [{ kind: 'highestRated' }, { kind: 'latest' }, { kind: 'centered' }],
    });
    expect(failed(result.check)).toEqual([]);
    expect(result.booking?.seats.every((s) => s.kind === 'premium')).toBe(true);
  });
});
