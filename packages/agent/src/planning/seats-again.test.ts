import { describe, expect, it } from 'vitest';
import { WorkingMemory } from '../memory/working.ts';
import type { PerceivedContext } from '../perception/perceive.ts';
import { freshExploration, type PlannerInput, planNext } from './deterministic.ts';
import { engineAt, model, ORBITAL_1930, ORBITAL_SUNDAY, specOf } from './solver/testing.ts';

/*
 * Seats chosen before a wish changed: "2 of the recliners", then "forget the recliners, just the
 * cheapest seats going". The premium seats still fit every hard wish, but seats chosen afresh are
 * cheaper, so the agent frees its own seats and chooses again; the participant's own stay.
 * (Riverside IMAX: premium rows G–J.)
 */

const tools = ['select', 'next', 'prev'].map((name) => ({ name, parameters: {} }));
const wishes = model([{ kind: 'seatCount', count: 2 }, { kind: 'adjacent' }], [{ kind: 'cheapest' }]);

function onSeats(selected: string[], theirs: string[]): PlannerInput {
  return {
    context: {
      uiSpec: specOf(engineAt([...ORBITAL_SUNDAY, ORBITAL_1930], selected)),
      toolSchema: tools,
      messageHistoryTail: [],
    } as unknown as PerceivedContext,
    model: wishes,
    memory: new WorkingMemory(),
    exploration: freshExploration(),
    mode: 'autopilot',
    participantChoices: new Set(theirs),
    goal: 'the cheapest seats going',
  };
}

describe('seats the agent chose before a wish changed', () => {
  it('are freed when seats chosen afresh fit the wishes better', () => {
    const action = planNext(onSeats(['H11', 'H12'], [])).nextAction;
    expect(action.type).toBe('tool.call');
    expect(action.type === 'tool.call' && action.toolName).toBe('select');
    expect(action.type === 'tool.call' && action.params.itemId).toBe('H11');
    expect(action.type === 'tool.call' && action.reason).toMatch(/^Freeing seat H11/);
  });

  it('stay when they are as good as any', () => {
    const first = planNext(onSeats([], [])).nextAction;
    const seat = first.type === 'tool.call' ? String(first.params.itemId) : '';
    const second = planNext(onSeats([seat], [])).nextAction;
    expect(second.type === 'tool.call' && second.reason).not.toMatch(/Freeing/);
  });

  it("are never the participant's own", () => {
    const action = planNext(onSeats(['H11', 'H12'], ['H11', 'H12'])).nextAction;
    expect(action.type === 'tool.call' && action.toolName).toBe('next');
  });
});
