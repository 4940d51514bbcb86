import { describe, expect, it } from 'vitest';
import { WorkingMemory } from '../memory/working.ts';
import type { PerceivedContext } from '../perception/perceive.ts';
import { freshExploration, type PlannerInput, planNext } from './deterministic.ts';
import { CALLS_KEPT_TO_BOOK, filmSurveyGoal } from './film-survey.ts';
import { engineAt, model, specOf } from './solver/testing.ts';
import { startSurvey } from './survey.ts';

const tools = ['select', 'next', 'prev'].map((name) => ({ name, parameters: {} }));
const option = (itemId: string) => ({ itemId, label: itemId, score: 1, reason: '', why: '' });

/** The movie stage with "the earliest showing tomorrow, 2 of us" and `callsLeft` calls left in the request. */
function onFilms(callsLeft: number | undefined): PlannerInput {
  return {
    context: { uiSpec: specOf(engineAt([])), toolSchema: tools, messageHistoryTail: [] } as unknown as PerceivedContext,
    model: {
      ...model([
        { kind: 'date', dates: ['2026-11-22'] },
        { kind: 'seatCount', count: 2 },
      ]),
      soft: [{ kind: 'earliest' }],
    },
    memory: new WorkingMemory(),
    exploration: freshExploration(true),
    mode: 'autopilot',
    participantChoices: new Set(),
    goal: 'the earliest showing tomorrow',
    callsLeft,
  };
}

describe('the search across films, within the request’s calls', () => {
  it('compares films while the calls left can pay for another film and still book', () => {
    const action = planNext(onFilms(undefined)).nextAction;
    expect(action.type === 'tool.call' && action.reason).toMatch(/to compare the films/);
    const plenty = planNext(onFilms(200)).nextAction;
    expect(plenty.type === 'tool.call' && plenty.reason).toMatch(/to compare the films/);
  });

  it('starts no comparison it could not finish: with few calls left the best film by the list is chosen', () => {
    const action = planNext(onFilms(CALLS_KEPT_TO_BOOK + 5)).nextAction;
    expect(action.type).toBe('tool.call');
    expect(action.type === 'tool.call' && action.reason).not.toMatch(/to compare the films/);
  });
});

describe('films that also meet the wishes said softly', () => {
  it('"a comedy would be lovely … whichever is the cheapest": only comedies are compared when some fit', () => {
    const input = onFilms(undefined);
    input.model = { ...input.model, soft: [{ kind: 'genre', include: ['Comedy'] }, { kind: 'cheapest' }] };
    planNext(input);
    const compared = input.exploration.films?.candidates ?? [];
    expect(compared.length).toBeGreaterThan(0);
    const genres = (id: string) =>
      (specOf(engineAt([])).items.find((i) => i.id === id)?.genres as string[] | undefined) ?? [];
    for (const film of compared) expect(genres(film)).toContain('Comedy');
    // Without the soft wish, other films are compared too.
    const all = onFilms(undefined);
    all.model = { ...all.model, soft: [{ kind: 'cheapest' }] };
    planNext(all);
    expect((all.exploration.films?.candidates ?? []).some((f) => !genres(f).includes('Comedy'))).toBe(true);
  });
});

describe('the closest place and the best rated there', () => {
  it('"the best rated of whatever is on at the closest place" searches for the closest; the best rated alone does not search', () => {
    const input = onFilms(undefined);
    input.model = { ...input.model, soft: [{ kind: 'closest' }, { kind: 'highestRated' }] };
    expect(filmSurveyGoal(input, [option('a'), option('b')])).toBe('closest');
    input.model = { ...input.model, soft: [{ kind: 'highestRated' }] };
    expect(filmSurveyGoal(input, [option('a'), option('b')])).toBeNull();
  });
});

describe('the search across theaters after a film led nowhere', () => {
  it('starts afresh for the next film: the last film’s finished search does not stand for it', () => {
    const input = onFilms(undefined);
    input.context = { ...input.context, uiSpec: specOf(engineAt(['m-paper-lanterns'])) } as PerceivedContext;
    input.model = { ...input.model, soft: [{ kind: 'cheapest' }] };
    input.exploration.survey = {
      ...startSurvey('cheapest', [], undefined, input.model),
      film: 'm-orbital-drift',
      done: true,
    };
    planNext(input);
    expect(input.exploration.survey?.film).toBe('m-paper-lanterns');
    expect(input.exploration.survey?.candidates.length).toBeGreaterThan(0);
  });
});
