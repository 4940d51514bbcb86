import { BookingEngine, defaultScenario } from '@usher/booking';
import { createMessage } from '@usher/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkingMemory } from '../../memory/working.ts';
import { EMPTY_CONTEXT, type PerceivedContext, perceive } from '../../perception/perceive.ts';
import { read } from '../../preferences/testing.ts';
import { freshExploration, type PlannerInput } from '../deterministic.ts';
import { createLlmPlanner, type LlmPlan } from './llm-planner.ts';
import { type FakeLlm, type RecordedRequest, type ScriptedReply, startFakeLlm, toolCallReply } from './testing.ts';

/*
 * End to end without a relay: the real booking engine's views, perceived as the agent does, and
 * the LLM planner's actions applied to the engine until the booking is made. The fake model
 * follows the rule-based hint of the prompt, except for one proposal of an invisible seat.
 */

const GOAL = 'Two adult tickets for Orbital Drift tomorrow evening in IMAX, seats together';

/** A model that calls what the prompt's rule-based hint names. */
function followHint(request: RecordedRequest): ScriptedReply {
  const state = String(request.body.messages[1]?.content);
  const hint = /A rule-based planner would call (\w+) (\{.*\}) because: (.*)$/m.exec(state);
  if (!hint) return { status: 500, body: { error: { message: 'no hint in the prompt' } } };
  const [, name = '', params = '{}', reason = ''] = hint;
  return toolCallReply(name, { ...JSON.parse(params), reason: `Following the wishes: ${reason}` });
}

let fake: FakeLlm;
beforeEach(async () => {
  fake = await startFakeLlm();
});
afterEach(async () => {
  await fake.close();
});

describe('the LLM planner over the real booking engine', () => {
  it('books the participant a film through validated LLM proposals', async () => {
    const engine = new BookingEngine(defaultScenario(), { now: () => new Date('2026-11-21T18:00:00Z') });
    engine.addMessage('participant', GOAL);
    let context: PerceivedContext = perceive(
      EMPTY_CONTEXT,
      createMessage('snapshot.state', { sessionId: 's-e2e', ...engine.view() }),
    );
    const input: PlannerInput = {
      context,
      model: read(GOAL).model,
      memory: new WorkingMemory(),
      exploration: freshExploration(true),
      mode: 'autopilot',
      participantChoices: new Set(),
      goal: GOAL,
    };
    const planner = createLlmPlanner(fake.config(), undefined, { hint: true });
    const plans: LlmPlan[] = [];
    let badSeatSent = false;
    for (let step = 0; step < 40; step++) {
      input.context = context;
      if (context.stage === 'seat' && !badSeatSent) {
        // One invisible seat first: rejected, then the retry follows the hint.
        fake.enqueue(toolCallReply('select', { itemId: 'Z99', reason: 'a seat in the middle' }), followHint);
        badSeatSent = true;
      } else {
        fake.enqueue(followHint);
      }
      const plan = await planner(input);
      plans.push(plan);
      if (plan.stop) break;
      const action = plan.nextAction;
      if (action.type !== 'tool.call') throw new Error(`unexpected ${action.type}: ${action.reason}`);
      // The engine accepts every proposal that passed validation.
      engine.apply(action.toolName, action.params, 'agent');
      context = perceive(
        context,
        createMessage('state.updated', {
          source: 'agent',
          action: { toolName: action.toolName, params: action.params },
          ...engine.view(),
        }),
      );
    }

    const last = plans.at(-1);
    expect(last).toMatchObject({ stop: 'done', source: 'fallback' });
    const acted = plans.filter((p) => p.nextAction.type === 'tool.call');
    expect(acted.length).toBeGreaterThan(8);
    expect(acted.every((p) => p.source === 'llm')).toBe(true);
    expect(plans.filter((p) => p.attempts === 2)).toHaveLength(1);
    expect(plans.find((p) => p.attempts === 2)?.rejected[0]).toMatch(/"Z99" is not visible/);
    const booking = engine.submitted();
    expect(booking).not.toBeNull();
    expect(JSON.stringify(booking)).toMatch(/Orbital Drift/);
    const seatPrompt = fake.requests
      .map((r) => String(r.body.messages[1]?.content))
      .find((c) => c.includes('Stage: seat'));
    expect(seatPrompt).toMatch(/^- Row G \(row 7 from the screen\): premium \+3 .*; taken /m);
    // Every prompt stays compact, the seat map included.
    for (const request of fake.requests) expect(String(request.body.messages[1]?.content).length).toBeLessThan(6_000);
  });
});
