import { BookingEngine, defaultScenario } from '@usher/booking';
import { createMessage } from '@usher/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkingMemory } from '../../memory/working.ts';
import { EMPTY_CONTEXT, perceive } from '../../perception/perceive.ts';
import type { PreferenceModel } from '../../preferences/index.ts';
import { read } from '../../preferences/testing.ts';
import { freshExploration, type PlannerInput, planNext } from '../deterministic.ts';
import { createLlmPlanner } from './llm-planner.ts';
import { type FakeLlm, startFakeLlm, textReply, toolCallReply, toolCallsReply } from './testing.ts';

const GOAL = 'Two adult tickets for Orbital Drift tomorrow evening in IMAX';
const WISHES = read(GOAL).model;
const ORBITAL = 'm-orbital-drift';

/** The planner's input on the movie stage of the default scenario. */
function movieStage(overrides: Partial<PlannerInput> = {}, model: PreferenceModel = WISHES): PlannerInput {
  const engine = new BookingEngine(defaultScenario(), { now: () => new Date('2026-11-21T18:00:00Z') });
  engine.addMessage('participant', GOAL);
  const context = perceive(EMPTY_CONTEXT, createMessage('snapshot.state', { sessionId: 's-1', ...engine.view() }));
  return {
    context,
    model,
    memory: new WorkingMemory(),
    exploration: freshExploration(true),
    mode: 'autopilot',
    participantChoices: new Set(),
    goal: GOAL,
    ...overrides,
  };
}

let fake: FakeLlm;
beforeEach(async () => {
  fake = await startFakeLlm();
});
afterEach(async () => {
  await fake.close();
});

const reason = 'Orbital Drift is the film the participant named';
/** What the n-th request says back about the rejected proposal (its tool and user messages). */
const feedbackOf = (n: number) =>
  (fake.requests[n]?.body.messages ?? [])
    .slice(2)
    .filter((m) => m.role === 'tool' || m.role === 'user')
    .map((m) => m.content);

describe('createLlmPlanner', () => {
  it('uses a valid proposal, offering the current tools plus say, with a bearer token', async () => {
    fake.enqueue(toolCallReply('select', { itemId: ORBITAL, reason }));
    const input = movieStage();
    const plan = await createLlmPlanner(fake.config())(input);
    expect(plan).toMatchObject({
      source: 'llm',
      attempts: 1,
      currentStage: 'movie',
      nextAction: { type: 'tool.call', toolName: 'select', params: { itemId: ORBITAL }, reason },
    });
    expect(plan.stop).toBeUndefined();
    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0];
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    expect(request?.body).toMatchObject({ model: 'fake-model', temperature: 0, tool_choice: 'required' });
    const offered = request?.body.tools?.map((t) => t.function.name);
    expect(offered).toEqual([...input.context.toolSchema.map((t) => t.name), 'say']);
    expect(offered).not.toContain('next');
    for (const tool of request?.body.tools ?? []) {
      expect(tool.function.parameters).toMatchObject({
        type: 'object',
        properties: { reason: { type: 'string' } },
        required: expect.arrayContaining(['reason']),
      });
    }
    const select = request?.body.tools?.find((t) => t.function.name === 'select');
    expect(select?.function.parameters).toMatchObject({ required: ['itemId', 'reason'] });
    const [system, user] = request?.body.messages ?? [];
    expect(system).toMatchObject({ role: 'system', content: expect.stringMatching(/exactly one/) });
    expect(user?.role).toBe('user');
    const state = String(user?.content);
    expect(state).toMatch(/Stage: movie — Choose a movie/);
    expect(state).toMatch(/- m-orbital-drift: Orbital Drift \| .*genre=Sci-Fi/);
    expect(state).toMatch(/Participant's wishes: Understood: .*Orbital Drift/);
    expect(state).toMatch(/participant: Two adult tickets for Orbital Drift/);
    expect(state).not.toMatch(/rule-based/);
  });

  it('retries an unknown tool once with the error, then uses the valid proposal', async () => {
    fake.enqueue(
      toolCallReply('next', { reason: 'skip ahead' }, 'call_a'),
      toolCallReply('select', { itemId: ORBITAL, reason }),
    );
    const plan = await createLlmPlanner(fake.config())(movieStage());
    expect(plan).toMatchObject({ source: 'llm', attempts: 2, nextAction: { toolName: 'select' } });
    expect(plan.rejected).toEqual([expect.stringMatching(/"next" is not available now/)]);
    expect(fake.requests).toHaveLength(2);
    const retry = fake.requests[1]?.body.messages.slice(2);
    expect(retry).toMatchObject([
      { role: 'assistant', tool_calls: [{ id: 'call_a', function: { name: 'next' } }] },
      { role: 'tool', tool_call_id: 'call_a', content: expect.stringMatching(/"next" is not available now/) },
      { role: 'user', content: expect.stringMatching(/rejected/) },
    ]);
  });

  it('falls back to the deterministic planner after two invalid proposals', async () => {
    fake.enqueue(toolCallReply('book', { reason: 'x' }), toolCallReply('next', { reason: 'y' }));
    const input = movieStage();
    const expected = planNext(movieStage());
    const plan = await createLlmPlanner(fake.config())(input);
    expect(plan).toMatchObject({ source: 'fallback', attempts: 2, nextAction: expected.nextAction });
    expect(plan.fallbackReason).toMatch(/invalid action 2 times \(last: "next" is not available now/);
    expect(plan.rejected).toHaveLength(2);
    expect(fake.requests).toHaveLength(2);
  });

  it('falls back on an HTTP error, without a retry', async () => {
    fake.enqueue({ status: 500, body: { error: { message: 'model overloaded' } } });
    const plan = await createLlmPlanner(fake.config())(movieStage());
    expect(plan).toMatchObject({ source: 'fallback', attempts: 1, nextAction: { toolName: 'select' } });
    expect(plan.fallbackReason).toMatch(/LLM request failed: .*HTTP 500: model overloaded/);
    expect(fake.requests).toHaveLength(1);
  });

  it('falls back on a timeout', async () => {
    fake.enqueue({ ...toolCallReply('select', { itemId: ORBITAL, reason }), delayMs: 2_000 });
    const plan = await createLlmPlanner(fake.config(), planNext, { timeoutMs: 100 })(movieStage());
    expect(plan.source).toBe('fallback');
    expect(plan.fallbackReason).toMatch(/timed out after 100 ms/);
  });

  it('falls back on a reply that is not a chat completion', async () => {
    fake.enqueue({ raw: 'not json' });
    const plan = await createLlmPlanner(fake.config())(movieStage());
    expect(plan.fallbackReason).toMatch(/invalid JSON/);
  });

  it.each([
    ['params that fail TOOL_PARAMS', toolCallReply('select', { itemId: 7, reason }), /Invalid params for select/],
    ['an unknown param', toolCallReply('select', { itemId: ORBITAL, seat: 'A1', reason }), /Invalid params for select/],
    ['arguments that are not JSON', toolCallReply('select', '{"itemId": '), /not valid JSON/],
    [
      'an item id that is not visible',
      toolCallReply('select', { itemId: 'm-nope', reason }),
      /"m-nope" is not visible/,
    ],
    [
      'a highlight of an item that is not visible',
      toolCallReply('highlight', { itemIds: [ORBITAL, 'm-gone'], reason }),
      /"m-gone" is not visible/,
    ],
    ['a missing reason', toolCallReply('select', { itemId: ORBITAL }), /needs a non-empty "reason"/],
    ['a blank reason', toolCallReply('select', { itemId: ORBITAL, reason: '  ' }), /needs a non-empty "reason"/],
    [
      'two calls',
      toolCallsReply([
        { name: 'select', args: { itemId: ORBITAL, reason } },
        { name: 'highlight', args: { itemIds: [ORBITAL], reason } },
      ]),
      /called 2 functions/,
    ],
  ])('retries %s with the validation error', async (_case, bad, error) => {
    fake.enqueue(bad, toolCallReply('select', { itemId: ORBITAL, reason }));
    const plan = await createLlmPlanner(fake.config())(movieStage());
    expect(plan).toMatchObject({ source: 'llm', attempts: 2, nextAction: { toolName: 'select' } });
    expect(plan.rejected[0]).toMatch(error);
    expect(feedbackOf(1)).toEqual(expect.arrayContaining([expect.stringMatching(error)]));
  });

  it('retries a text answer with a user message', async () => {
    fake.enqueue(textReply('I would pick Orbital Drift.'), toolCallReply('select', { itemId: ORBITAL, reason }));
    const plan = await createLlmPlanner(fake.config())(movieStage());
    expect(plan.source).toBe('llm');
    expect(fake.requests[1]?.body.messages.slice(2)).toEqual([
      { role: 'assistant', content: 'I would pick Orbital Drift.' },
      { role: 'user', content: expect.stringMatching(/called no function/) },
    ]);
  });

  it('refuses to replace a choice the participant made', async () => {
    const input = movieStage();
    const spec = input.context.uiSpec;
    if (!spec) throw new Error('no uiSpec');
    const chosen = { ...spec, state: { ...spec.state, selected: 'm-quiet-harbor' } };
    input.context = { ...input.context, uiSpec: chosen };
    input.participantChoices = new Set(['m-quiet-harbor']);
    fake.enqueue(
      toolCallReply('select', { itemId: ORBITAL, reason }),
      toolCallReply('select', { itemId: ORBITAL, reason }),
    );
    const plan = await createLlmPlanner(fake.config())(input);
    expect(plan.source).toBe('fallback');
    expect(plan.rejected[0]).toMatch(/participant chose "m-quiet-harbor"/);
  });

  it('turns say into an agent.message and waits for the answer', async () => {
    fake.enqueue(toolCallReply('say', { text: 'Which evening suits you?', reason: 'the day is unclear' }));
    const plan = await createLlmPlanner(fake.config())(movieStage());
    expect(plan).toMatchObject({
      source: 'llm',
      stop: 'waiting',
      nextAction: { type: 'agent.message', text: 'Which evening suits you?', reason: 'the day is unclear' },
    });
  });

  it('leaves stop decisions and assist mode to the deterministic planner, without asking the LLM', async () => {
    const noWishes = movieStage({ exploration: freshExploration(false) }, { hard: [], soft: [] });
    const asks = await createLlmPlanner(fake.config())(noWishes);
    expect(asks).toMatchObject({ source: 'fallback', stop: 'waiting', nextAction: { type: 'agent.message' } });
    expect(asks.fallbackReason).toMatch(/decides to stop here \(waiting\)/);
    const assist = await createLlmPlanner(fake.config())(movieStage({ mode: 'assist' }));
    expect(assist).toMatchObject({ source: 'fallback', fallbackReason: 'assist mode is planned deterministically' });
    const resync = await createLlmPlanner(fake.config())(movieStage({ context: EMPTY_CONTEXT }));
    expect(resync).toMatchObject({ source: 'fallback', nextAction: { type: 'snapshot.get' } });
    expect(fake.requests).toHaveLength(0);
  });

  it('tells the model what the deterministic planner would do, when asked to', async () => {
    fake.enqueue(toolCallReply('select', { itemId: ORBITAL, reason }));
    await createLlmPlanner(fake.config(), planNext, { hint: true })(movieStage());
    expect(fake.requests[0]?.body.messages[1]?.content).toMatch(
      /A rule-based planner would call select \{"itemId":"m-orbital-drift"\} because:/,
    );
  });
});
