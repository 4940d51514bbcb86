import { ORBITAL_IMAX_PAIR } from '@usher/agent/testing';
import { checkBooking, defaultScenario } from '@usher/booking';
import { type AgentEvent, AgentEventSchema } from '@usher/protocol/stdio';
import { startTestRelay } from '@usher/relay/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { Conversation, RunOutcome, RunQuestions } from './engine.ts';
import { HostRunEngine } from './host-engine.ts';

const ORBITAL = ORBITAL_IMAX_PAIR.text;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup() {
  const scenario = defaultScenario();
  const server = await startTestRelay({ headlessHost: true, scenario });
  const engine = new HostRunEngine({ url: server.url, room: 'default', study: 'runtime-test', participant: 'P01' });
  cleanups.push(
    () => server.close(),
    () => engine.close(),
  );
  return { scenario, server, engine };
}

const conversation = (): Conversation => ({ id: 'c1', model: { hard: [], soft: [] } });

/** Runs one instruction, collecting its events. */
async function run(
  engine: HostRunEngine,
  text: string,
  options: {
    conversation?: Conversation;
    questions?: RunQuestions;
    signal?: AbortSignal;
    onEvent?: (e: AgentEvent) => void;
  } = {},
) {
  const events: AgentEvent[] = [];
  const outcome: RunOutcome = await engine.run({
    text,
    conversation: options.conversation ?? conversation(),
    signal: options.signal ?? new AbortController().signal,
    emit: (event) => {
      events.push(event);
      options.onEvent?.(event);
    },
    ...(options.questions && { questions: options.questions }),
  });
  return { outcome, events };
}

/** Every tool call is framed step_start → tool_call → tool_result → step_complete under one id. */
function expectWellFramedSteps(events: AgentEvent[]): void {
  for (const event of events) expect(AgentEventSchema.safeParse(event).success).toBe(true);
  const framing = events.filter((e) => e.type.startsWith('step') || e.type.startsWith('tool'));
  expect(framing.length % 4).toBe(0);
  for (let i = 0; i < framing.length; i += 4) {
    const [start, call, result, complete] = framing.slice(i, i + 4) as AgentEvent[];
    expect([start?.type, call?.type, result?.type, complete?.type]).toEqual([
      'step_start',
      'tool_call',
      'tool_result',
      'step_complete',
    ]);
    const id = start?.type === 'step_start' ? start.step_id : '';
    expect(call?.type === 'tool_call' && call.tool_call_id).toBe(id);
    expect(result?.type === 'tool_result' && result.tool_call_id).toBe(id);
    expect(complete?.type === 'step_complete' && complete.step_id).toBe(id);
    if (start?.type === 'step_start') expect(start.step_number).toBe(i / 4 + 1);
  }
}

describe('HostRunEngine', () => {
  it('books what the instruction asks for and reports every step, then a final answer', async () => {
    const { scenario, server, engine } = await setup();
    const { outcome, events } = await run(engine, ORBITAL);
    expect(outcome.status).toBe('completed');
    expect(outcome.booked).toBe(true);
    expectWellFramedSteps(events);
    // The final answer says what was booked.
    expect(events.at(-1)).toMatchObject({
      type: 'final',
      content: expect.stringMatching(
        /^Your booking is confirmed: USH-\w+\. 2 tickets for Orbital Drift .* seats \w+, \w+/,
      ),
    });
    // The agent says what it understood before acting.
    expect(events[0]?.type).toBe('text');
    // A call is shown by what the participant sees, not by the item's id.
    expect(events.find((e) => e.type === 'tool_call')).toMatchObject({
      tool: 'select',
      args: { itemId: 'm-orbital-drift' },
      display_name: 'select · Orbital Drift',
    });
    const [booking] = server.headlessHost?.bookings ?? [];
    expect(booking).toBeDefined();
    const check = checkBooking(scenario, booking as never, ORBITAL_IMAX_PAIR);
    expect(check.hard.filter((h) => !h.ok)).toEqual([]);
    expect(outcome.toolCalls).toBe(events.filter((e) => e.type === 'tool_call').length);
  });

  it('asks before the submit: a "no" leaves the booking unsubmitted, and the same conversation goes on to book', async () => {
    const { scenario, server, engine } = await setup();
    const talk = conversation();
    const asked: string[] = [];
    const declined = await run(engine, ORBITAL, {
      conversation: talk,
      questions: {
        confirm: async (question) => {
          asked.push(question.message);
          return false;
        },
      },
    });
    expect(declined.outcome).toMatchObject({ status: 'completed', booked: false });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/Orbital Drift/);
    expect(declined.events.at(-1)).toMatchObject({ type: 'final', content: expect.stringMatching(/not submitted/) });
    expect(server.headlessHost?.bookings).toEqual([]);
    // The wishes stay with the conversation: "go on" needs no restating.
    expect(talk.model.hard.length).toBeGreaterThan(3);
    const accepted = await run(engine, 'Yes, go ahead and book it', {
      conversation: talk,
      questions: { confirm: async () => true },
    });
    expect(accepted.outcome).toMatchObject({ status: 'completed', booked: true });
    const [booking] = server.headlessHost?.bookings ?? [];
    expect(checkBooking(scenario, booking as never, ORBITAL_IMAX_PAIR).hard.filter((h) => !h.ok)).toEqual([]);
  });

  it('refines the wishes across instructions of one conversation', async () => {
    const { scenario, server, engine } = await setup();
    const talk = conversation();
    const first = await run(engine, 'Orbital Drift tomorrow evening', {
      conversation: talk,
      questions: { confirm: async () => false },
    });
    expect(first.outcome.booked).toBe(false);
    const second = await run(engine, 'In IMAX please, two adults, seats together', { conversation: talk });
    expect(second.outcome).toMatchObject({ status: 'completed', booked: true });
    const [booking] = server.headlessHost?.bookings ?? [];
    expect(checkBooking(scenario, booking as never, ORBITAL_IMAX_PAIR).hard.filter((h) => !h.ok)).toEqual([]);
  });

  it('stops at once when cancelled mid-run: nothing is emitted afterwards, and the next run goes ahead', async () => {
    const { server, engine } = await setup();
    const controller = new AbortController();
    let afterCancel = 0;
    const cancelled = await run(engine, ORBITAL, {
      signal: controller.signal,
      onEvent: (event) => {
        if (controller.signal.aborted) afterCancel += 1;
        if (event.type === 'tool_call' && event.tool === 'select') controller.abort();
      },
    });
    expect(cancelled.outcome.status).toBe('cancelled');
    expect(afterCancel).toBe(0);
    expect(cancelled.events.some((e) => e.type === 'final')).toBe(false);
    expect(server.headlessHost?.bookings).toEqual([]);
    const next = await run(engine, ORBITAL);
    expect(next.outcome).toMatchObject({ status: 'completed', booked: true });
  });

  it('submits nothing when cancelled while the confirm question is open, even if the answer is yes', async () => {
    const { server, engine } = await setup();
    const controller = new AbortController();
    const { outcome, events } = await run(engine, ORBITAL, {
      signal: controller.signal,
      questions: {
        confirm: async () => {
          controller.abort();
          return true;
        },
      },
    });
    expect(outcome.status).toBe('cancelled');
    expect(events.some((e) => e.type === 'final')).toBe(false);
    expect(server.headlessHost?.bookings).toEqual([]);
  });

  it('asks for a missing wish when it can, and books from the answer', async () => {
    const { server, engine } = await setup();
    const prompts: string[] = [];
    const { outcome } = await run(engine, 'Hello there', {
      questions: {
        prompt: async (question) => {
          prompts.push(question.message);
          return ORBITAL;
        },
      },
    });
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toMatch(/what to book/i);
    expect(outcome).toMatchObject({ status: 'completed', booked: true });
    expect(server.headlessHost?.bookings).toHaveLength(1);
  });

  it('without a way to ask, ends the run with the question as its final answer', async () => {
    const { engine } = await setup();
    const { outcome, events } = await run(engine, 'Hello there');
    expect(outcome).toMatchObject({ status: 'completed', booked: false });
    expect(events.at(-1)).toMatchObject({ type: 'final', content: expect.stringMatching(/what to book/i) });
  });

  it('stops a run that makes no progress (no host in the room) with an error, never waiting for ever', async () => {
    const server = await startTestRelay({ headlessHost: false });
    const engine = new HostRunEngine({
      url: server.url,
      room: 'default',
      study: 's',
      participant: 'p',
      stallTimeoutMs: 300,
    });
    cleanups.push(
      () => server.close(),
      () => engine.close(),
    );
    const { outcome, events } = await run(engine, ORBITAL);
    expect(outcome.status).toBe('error');
    expect(outcome.message).toMatch(/no progress for 300 ms .*room "default"/);
    expect(events).toEqual([]);
  });

  it('does not count the wait for an answer to its question as a stall', async () => {
    const scenario = defaultScenario();
    const server = await startTestRelay({ headlessHost: true, scenario });
    const engine = new HostRunEngine({
      url: server.url,
      room: 'default',
      study: 's',
      participant: 'p',
      stallTimeoutMs: 1000,
    });
    cleanups.push(
      () => server.close(),
      () => engine.close(),
    );
    const { outcome } = await run(engine, ORBITAL, {
      questions: { confirm: () => new Promise((resolve) => setTimeout(() => resolve(true), 2500)) },
    });
    expect(outcome).toMatchObject({ status: 'completed', booked: true });
  });

  it('ends with an error that names the relay when it cannot be reached', async () => {
    const engine = new HostRunEngine({ url: 'ws://127.0.0.1:9', room: 'default', study: 's', participant: 'p' });
    cleanups.push(() => engine.close());
    const { outcome, events } = await run(engine, ORBITAL);
    expect(outcome.status).toBe('error');
    expect(outcome.message).toMatch(/cannot reach the host through the relay at ws:\/\/127\.0\.0\.1:9/);
    expect(events).toEqual([]);
  });
});

describe('HostRunEngine, picking among equals', () => {
  it('offers options that fit equally well, books the one picked, and asks each question once', async () => {
    const { server, engine } = await setup();
    const asked: { title: string; items: { id: string; label: string; detail: string }[] }[] = [];
    const { outcome } = await run(engine, 'Two adults for Orbital Drift tomorrow evening', {
      questions: {
        pick: async (question) => {
          asked.push(question);
          // Not the agent's own first choice.
          return [question.items.at(-1)?.id ?? ''];
        },
      },
    });
    expect(outcome).toMatchObject({ status: 'completed', booked: true });
    // Each option is shown by its label, and its detail says why it fits without repeating the label.
    for (const question of asked) {
      for (const item of question.items) expect(item.detail.startsWith(`${item.label}:`)).toBe(false);
    }
    const stages = asked.map((q) => q.title.match(/These (\w+) options/)?.[1]);
    expect(new Set(stages).size).toBe(stages.length);
    expect(asked.length).toBeGreaterThan(0);
    const [booking] = server.headlessHost?.bookings ?? [];
    const picked = asked.map((q) => q.items.at(-1)?.id);
    for (const question of asked) expect(question.items.length).toBeGreaterThan(1);
    expect(picked).toContain(stages.includes('theater') ? booking?.theaterId : booking?.showingId);
  });

  it('keeps its own choice when nothing is picked', async () => {
    const { server, engine } = await setup();
    let offered: string | undefined;
    const { outcome } = await run(engine, 'Two adults for Orbital Drift tomorrow evening', {
      questions: {
        pick: async (question) => {
          offered ??= question.items[0]?.id;
          return [];
        },
      },
    });
    expect(outcome).toMatchObject({ status: 'completed', booked: true });
    const [booking] = server.headlessHost?.bookings ?? [];
    expect([booking?.theaterId, booking?.showingId]).toContain(offered);
  });
});
