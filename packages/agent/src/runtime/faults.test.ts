import { checkBooking, defaultScenario, type SubmittedBooking } from '@usher/booking';
import type { Message } from '@usher/protocol';
import { startTestRelay as startTestServer } from '@usher/relay/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import { withinLimit } from '../testing/bounded.ts';
import { everyCall, FaultyHost, type FaultyHostOptions, nthCall } from '../testing/faulty-host.ts';
import { ORBITAL_IMAX_PAIR } from '../testing/stories.ts';
import { Agent } from './agent.ts';
import type { AgentResult } from './agent-options.ts';

const GOAL = ORBITAL_IMAX_PAIR.text;
const STORY = ORBITAL_IMAX_PAIR;
/** How long a run may take before the test calls it a hang. */
const RUN_LIMIT_MS = 15_000;

/** Every host of every test, for the toolSchema check across all runs (spec §10). */
const everyHost: FaultyHost[] = [];

async function faultyHost(options: Omit<FaultyHostOptions, 'scenario'>): Promise<FaultyHost> {
  const host = await FaultyHost.join({ scenario: defaultScenario(), ...options });
  everyHost.push(host);
  onTestFinished(() => host.close());
  return host;
}

function autopilot(url: string): Agent {
  const agent = new Agent({
    url,
    room: 'default',
    study: 'pilot-01',
    participant: 'P07',
    mode: 'autopilot',
    goal: GOAL,
    returnWhenBlocked: true,
    stateTimeoutMs: 300,
    requestTimeoutMs: 3000,
  });
  onTestFinished(() => agent.stop());
  return agent;
}

const bounded = (run: Promise<AgentResult>) => withinLimit(run, RUN_LIMIT_MS);

function expectBookingFitsGoal(booking: SubmittedBooking | null): void {
  expect(booking).not.toBeNull();
  const check = checkBooking(defaultScenario(), booking as SubmittedBooking, STORY);
  expect(check.hard.filter((h) => !h.ok)).toEqual([]);
}

/** Done with a booking that fits, or blocked having told the participant why in the chat. */
async function finishedOrStoppedClearly(result: AgentResult, host: FaultyHost): Promise<void> {
  expect(['done', 'blocked']).toContain(result.status);
  if (result.status === 'done') return expectBookingFitsGoal(host.protocol.engine.submitted());
  expect(result.message.trim().length).toBeGreaterThan(10);
  await host.waitFor((m) => m.type === 'agent.message' && m.payload.text === result.message, 5000);
}

/** Every call this host got named a tool of the toolSchema it had sent last, with a reason. */
function expectCallsWithinSchema(host: FaultyHost): void {
  for (const call of host.calls) {
    expect(call.offered, `tool.call #${call.index} ${call.toolName} on the ${call.stage} stage`).toContain(
      call.toolName,
    );
    expect(call.reason.trim(), `reason of tool.call #${call.index}`).not.toBe('');
  }
}

describe('Agent under injected faults, over real sockets', () => {
  it('resyncs with snapshot.get when the state.updated after a tool result never comes, and books', async () => {
    const server = await startTestServer();
    const host = await faultyHost({ url: server.url, dropStateAfterCall: 3 });
    const result = await bounded(autopilot(server.url).run());

    expect(result.status).toBe('done');
    expectBookingFitsGoal(host.protocol.engine.submitted());
    const dropped = host.calls[2];
    expect(dropped?.fate).toBe('state-dropped');
    const third = host.received.filter((m) => m.type === 'tool.call')[2] as Message;
    const after = host.received[host.received.indexOf(third) + 1];
    expect(after?.type, 'the frame the host received right after the call whose state.updated it dropped').toBe(
      'snapshot.get',
    );
    expectCallsWithinSchema(host);
  });

  it('replans after a seat select fails with TOOL_EXECUTION_FAILED, and books', async () => {
    const server = await startTestServer();
    const host = await faultyHost({ url: server.url, fail: nthCall('select', 1, 'seat') });
    const result = await bounded(autopilot(server.url).run());

    expect(result.status).toBe('done');
    expectBookingFitsGoal(host.protocol.engine.submitted());
    const seatSelects = host.calls.filter((c) => c.toolName === 'select' && c.stage === 'seat');
    expect(seatSelects[0]?.fate).toBe('failed');
    expect(seatSelects.slice(1).every((c) => c.fate === 'answered')).toBe(true);
    expectCallsWithinSchema(host);
  });

  it('stops and says why after three failures on the seat stage, without a fourth attempt', async () => {
    const server = await startTestServer();
    const host = await faultyHost({ url: server.url, fail: everyCall('select', 'seat') });
    const result = await bounded(autopilot(server.url).run());

    expect(result.status).toBe('blocked');
    expect(result.message).toMatch(/seat/);
    const said = await host.waitFor((m) => m.type === 'agent.message' && m.payload.text === result.message, 5000);
    const failing = host.calls.filter((c) => c.fate === 'failed');
    expect(failing.length).toBeGreaterThan(0);
    expect(failing.length).toBeLessThanOrEqual(3);
    // Nothing is tried after the agent has said it stops.
    const callsAfter = host.received.slice(host.received.indexOf(said)).filter((m) => m.type === 'tool.call');
    expect(callsAfter).toEqual([]);
    expect(host.protocol.engine.submitted()).toBeNull();
    expectCallsWithinSchema(host);
  });

  it('goes on with a host that replaced the old one mid-run: books there or stops saying why, never hangs', async () => {
    const server = await startTestServer();
    const first = await faultyHost({ url: server.url, holdCall: 4 });
    const running = bounded(autopilot(server.url).run());
    running.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
    await first.toolCallNumber(4);
    const second = await faultyHost({ url: server.url });
    const result = await running;

    expect(first.closeCode).toBe(4001);
    await finishedOrStoppedClearly(result, second);
    expectCallsWithinSchema(first);
    expectCallsWithinSchema(second);
  });

  it('reconnects after the relay restarts on the same port: resyncs, then books or stops saying why', async () => {
    const server = await startTestServer();
    const first = await faultyHost({ url: server.url, holdCall: 4 });
    const running = bounded(autopilot(server.url).run());
    running.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
    await first.toolCallNumber(4);
    await server.close();
    const restarted = await startTestServer({ port: server.port });
    const second = await faultyHost({ url: restarted.url });
    const result = await running;

    // The reconnected agent resynced: session.start, then snapshot.get, before any tool call.
    const types = second.received.map((m) => m.type);
    expect(types).toContain('session.start');
    expect(types.indexOf('snapshot.get')).toBeGreaterThan(types.indexOf('session.start'));
    await finishedOrStoppedClearly(result, second);
    expectCallsWithinSchema(first);
    expectCallsWithinSchema(second);
  });

  it('never called a tool outside the toolSchema the host had sent last, and gave every call a reason', () => {
    const calls = everyHost.flatMap((host) => host.calls);
    expect(calls.length).toBeGreaterThan(0);
    for (const host of everyHost) {
      expect(host.unreadable).toEqual([]);
      expectCallsWithinSchema(host);
    }
  });
});

describe('a participant yes whose chat update comes a moment after it', () => {
  it('books on the first yes: the update showing the message does not make the agent ask again', async () => {
    const server = await startTestServer();
    // The page's update of its chat arrives while the agent waits its pace before submitting.
    const host = await faultyHost({ url: server.url, chatEchoDelayMs: 100 });
    const agent = new Agent({
      url: server.url,
      room: 'default',
      study: 'pilot-01',
      participant: 'P07',
      mode: 'autopilot',
      goal: GOAL,
      paceMs: 300,
      confirmInChat: true,
      returnWhenBlocked: false,
    });
    onTestFinished(() => agent.stop());
    const running = bounded(agent.run());
    const asked = (m: Message) => m.type === 'agent.message' && m.payload.text.includes('Shall I book it?');
    await host.waitFor(asked, RUN_LIMIT_MS);
    host.say('yes');
    const result = await running;
    expect(result.status).toBe('done');
    expectBookingFitsGoal(host.protocol.engine.submitted());
    expect(host.received.filter(asked)).toHaveLength(1);
  });
});
