import { describe, expect, it } from 'vitest';
import { contextKeyOf } from '../memory/fingerprint.ts';
import { WorkingMemory } from '../memory/working.ts';
import type { PerceivedContext } from '../perception/perceive.ts';
import { freshExploration, type PlannerInput, planNext } from './deterministic.ts';
import { engineAt, model, specOf } from './solver/testing.ts';

const tools = ['select', 'next', 'prev'].map((name) => ({ name, parameters: {} }));

/** The theater stage of Orbital Drift with Riverside IMAX selected, two seats tomorrow. */
function onTheaters(picked: ReadonlyMap<string, string>): PlannerInput {
  const engine = engineAt(['m-orbital-drift']);
  engine.apply('select', { itemId: 't-riverside' }, 'agent');
  return {
    context: { uiSpec: specOf(engine), toolSchema: tools, messageHistoryTail: [] } as unknown as PerceivedContext,
    model: model([
      { kind: 'date', dates: ['2026-11-22'] },
      { kind: 'seatCount', count: 2 },
    ]),
    memory: new WorkingMemory(),
    exploration: freshExploration(true),
    mode: 'autopilot',
    participantChoices: new Set(),
    goal: 'two seats tomorrow',
    picked,
  };
}

describe('a theater picked among equals', () => {
  it('is kept under the film it was picked for', () => {
    const spec = specOf(engineAt(['m-orbital-drift']));
    const here = contextKeyOf('theater', spec.state.booking);
    const action = planNext(onTheaters(new Map([['t-riverside', here]]))).nextAction;
    expect(action.type === 'tool.call' && action.reason).toMatch(/^You picked Riverside/);
  });

  it('is no pick under another film: the agent chooses as if nobody had picked', () => {
    const other = contextKeyOf('theater', specOf(engineAt(['m-paper-lanterns'])).state.booking);
    const action = planNext(onTheaters(new Map([['t-riverside', other]]))).nextAction;
    expect(action.type === 'tool.call' && action.reason).not.toMatch(/You picked/);
  });
});
