import { describe, expect, it } from 'vitest';
import { WorkingMemory } from '../memory/working.ts';
import type { PerceivedContext } from '../perception/perceive.ts';
import { freshExploration, type PlannerInput, planNext } from './deterministic.ts';
import { engineAt, model, specOf } from './solver/testing.ts';

const tools = ['highlight', 'augment', 'select', 'next', 'prev'].map((name) => ({ name, parameters: {} }));

/** Assist mode on the page after `choices`, with `wishes`; `theirs` are the choices the participant made on the page. */
function assistOn(choices: string[], wishes: PlannerInput['model'], theirs: string[], goal: string): PlannerInput {
  return {
    context: {
      uiSpec: specOf(engineAt(choices)),
      toolSchema: tools,
      messageHistoryTail: [],
    } as unknown as PerceivedContext,
    model: wishes,
    memory: new WorkingMemory(),
    exploration: freshExploration(true),
    mode: 'assist',
    participantChoices: new Set(theirs),
    goal,
  };
}

describe('assist marks', () => {
  it('no longer marks a film once the theater stage showed it does not play at the theater asked for', () => {
    const memory = new WorkingMemory();
    const exploration = freshExploration();
    const wishes = model([
      { kind: 'genre', include: ['Drama'] },
      { kind: 'theater', is: ['Oakwood Community Cinema'] },
    ]);
    const at = (choices: string[]): PlannerInput => ({
      context: {
        uiSpec: specOf(engineAt(choices)),
        toolSchema: tools,
        messageHistoryTail: [],
      } as unknown as PerceivedContext,
      model: wishes,
      memory,
      exploration,
      mode: 'assist',
      participantChoices: new Set(choices),
      goal: 'a drama at Oakwood',
    });
    // The participant picks The Last Cartographer themselves: its theaters are Lumen and Riverside only.
    const onTheaters = planNext(at(['m-last-cartographer'])).nextAction;
    expect(onTheaters.type).toBe('agent.message');
    // Back on the film list, the agent looks ahead at where the films play (a theater was named), and
    // leaves that film out: the theater stage already showed it does not play there.
    const back = planNext(at([])).nextAction;
    expect(back.type === 'agent.message' && back.text).toMatch(/does not show where each film plays/);
    expect(exploration.probe?.candidates.length).toBeGreaterThan(0);
    expect(exploration.probe?.candidates).not.toContain('m-last-cartographer');
  });
});

describe('assist marks after the wishes changed', () => {
  it('goes back to the film list when the page holds a film the agent chose while looking ahead', () => {
    const input = assistOn(['m-paper-lanterns'], model([{ kind: 'format', is: ['IMAX'] }]), [], 'what is on in IMAX');
    const action = planNext(input).nextAction;
    expect(action.type === 'tool.call' && action.toolName).toBe('prev');
    expect(action.type === 'tool.call' && action.reason).toMatch(/going back to the film list/);
  });
});

describe('assist marks on the theater stage', () => {
  it('marks only theaters that advertise the format asked for', () => {
    // The participant chose the film on the page.
    const input = assistOn(
      ['m-paper-lanterns'],
      model([{ kind: 'format', is: ['IMAX'] }]),
      ['m-paper-lanterns'],
      'paper lanterns in IMAX',
    );
    const action = planNext(input).nextAction;
    expect(action.type === 'tool.call' && action.toolName).toBe('highlight');
    const marked = action.type === 'tool.call' ? (action.params.itemIds as string[]) : [];
    // Grand Central (3D) and Oakwood (no premium format) play it, but not in IMAX.
    expect([...marked].sort()).toEqual(['t-riverside', 't-starlight']);
  });
});
