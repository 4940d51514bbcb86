import type { Stage, UiSpec } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { freshExploration, type PlannerInput } from './deterministic.ts';
import { filmSearched } from './film-survey.ts';
import type { NavigationPlan } from './plan.ts';
import type { StageDecision } from './solver/index.ts';
import { MAX_PROBES, slotKey, startSurvey } from './survey.ts';
import { type SurveyMoves, surveyOnBooking, surveyStep } from './survey-step.ts';

/** Moves that record what the search asked for. */
function recorder() {
  const done: string[] = [];
  const plan = (what: string) => {
    done.push(what);
    return {
      goal: '',
      currentStage: null,
      remainingSteps: [],
      nextAction: { type: 'wait' },
      confidence: 1,
    } as unknown as NavigationPlan;
  };
  const moves: SurveyMoves = {
    selectOrNext: (id) => plan(`select ${id}`),
    selectSeat: (id) => plan(`seat ${id}`),
    next: () => plan('next'),
    back: (stage: Stage) => plan(`back ${stage}`),
  };
  return { done, moves };
}

function inputWithProbe(): PlannerInput {
  const exploration = freshExploration();
  exploration.survey = startSurvey('cheapest', [
    { itemId: 'dome', label: 'Dome', score: 1, reason: '', why: '' },
    { itemId: 'harbour', label: 'Harbour', score: 1, reason: '', why: '' },
  ]);
  exploration.survey.probe = { itemId: 'sh-1', format: 'IMAX' };
  exploration.survey.probes = 1;
  return {
    mode: 'autopilot',
    model: { hard: [{ kind: 'seatCount', count: 2 }], soft: [{ kind: 'cheapest' }] },
    exploration,
    goal: '',
  } as unknown as PlannerInput;
}

const booking = {
  theater: { id: 'dome', name: 'Dome' },
  date: '2026-11-26',
  showing: { id: 'sh-1', time: '11:00', endTime: '13:00', format: 'IMAX' },
};
const spec = (stage: Stage, items: UiSpec['items'], selectedList: string[] = []) =>
  ({ stage, items, visibleItems: items, state: { booking, selectedList } }) as unknown as UiSpec;

describe('a trip to a ticket stage to read a format price', () => {
  it('takes one seat of the best set, then moves on', () => {
    const input = inputWithProbe();
    const seats: StageDecision = {
      stage: 'seat',
      kind: 'seats',
      options: [{ seatIds: ['E8', 'E9'], toSelect: ['E8', 'E9'], score: 1, reason: '' }],
    };
    const { done, moves } = recorder();
    surveyOnBooking(input, spec('seat', []), seats, moves);
    surveyOnBooking(input, spec('seat', [], ['E8']), seats, moves);
    expect(done).toEqual(['seat E8', 'next']);
  });

  it("notes what the party's tickets cost in the format and goes back to the showtimes", () => {
    const input = inputWithProbe();
    const { done, moves } = recorder();
    const tickets = [{ id: 'adult', value: 'Adult', isDisabled: false, price: 25 }];
    surveyOnBooking(
      input,
      spec('ticket', tickets),
      { stage: 'ticket', kind: 'dead-end', failing: [], summary: '' },
      moves,
    );
    expect(done).toEqual(['back time']);
    expect(input.exploration.survey?.prices.get('IMAX')).toBe(50);
    expect(input.exploration.survey?.probe).toBeNull();
  });

  it('goes back without a price, and makes no more trips, when the ticket stage shows none', () => {
    const input = inputWithProbe();
    const { done, moves } = recorder();
    const tickets = [{ id: 'adult', value: 'Adult', isDisabled: false }];
    surveyOnBooking(
      input,
      spec('ticket', tickets),
      { stage: 'ticket', kind: 'dead-end', failing: [], summary: '' },
      moves,
    );
    expect(done).toEqual(['back time']);
    expect(input.exploration.survey?.prices.size).toBe(0);
    expect(input.exploration.survey?.probe).toBeNull();
    expect(input.exploration.survey?.probes).toBe(MAX_PROBES);
  });
});

describe('a best showing that led nowhere after it was noted', () => {
  it('is the best no more: the date stage takes the next best day instead of coming back to it', () => {
    const input = inputWithProbe();
    const survey = input.exploration.survey as NonNullable<PlannerInput['exploration']['survey']>;
    survey.probe = null;
    survey.done = true;
    survey.dates.set('dome', ['2026-11-26', '2026-11-27']);
    // Both days have a Standard showing (cost 0); the first day's showtimes all failed on the seat stage since.
    survey.found.set(slotKey('dome', '2026-11-26'), {
      theater: 'dome',
      date: '2026-11-26',
      value: 0,
      priced: true,
      itemId: 'sh-1',
    });
    survey.found.set(slotKey('dome', '2026-11-27'), {
      theater: 'dome',
      date: '2026-11-27',
      value: 0,
      priced: true,
      itemId: 'sh-2',
    });
    const { done, moves } = recorder();
    const day = (id: string) => ({ itemId: id, label: id, score: 1, reason: '', why: '' });
    const dateSpec = spec('date', [
      { id: '2026-11-26', value: '2026-11-26' },
      { id: '2026-11-27', value: '2026-11-27' },
    ]);
    surveyStep(input, dateSpec, [day('2026-11-27')], new Set(['2026-11-26']), moves);
    expect(done).toEqual(['select 2026-11-27']);
  });
});

describe('the last film compared', () => {
  it('goes back to a film before it that is surely better, instead of booking its own unpriced format', () => {
    const input = inputWithProbe();
    const survey = input.exploration.survey as NonNullable<PlannerInput['exploration']['survey']>;
    survey.probe = null;
    survey.done = true;
    survey.dates.set('dome', ['2026-11-26']);
    // This film's only list has 3D, whose price is not known yet.
    survey.found.set(slotKey('dome', '2026-11-26'), {
      theater: 'dome',
      date: '2026-11-26',
      value: Number.NaN,
      priced: false,
      itemId: 'sh-3d',
      format: '3D',
    });
    input.exploration.films = {
      goal: 'cheapest',
      candidates: ['paper', 'overtime'],
      labels: new Map([
        ['paper', 'Paper Moons'],
        ['overtime', 'Overtime Heroes'],
      ]),
      surveys: new Map(),
      // The first film has a Standard showing: nothing can be cheaper.
      results: new Map([['paper', { theater: 'lumen', date: '2026-11-26', value: 0, priced: true }]]),
      current: 'overtime',
      away: true,
      done: false,
    };
    const { done, moves } = recorder();
    filmSearched(input, survey, moves);
    expect(done).toEqual(['back movie']);
  });
});
