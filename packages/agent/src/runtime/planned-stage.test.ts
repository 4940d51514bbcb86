import { join } from 'node:path';
import { defaultScenario, unconfirmedSubmits } from '@usher/booking';
import { readLog, startTestRelay } from '@usher/relay/testing';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { withinLimit } from '../testing/bounded.ts';
import { FaultyHost, type FaultyHostOptions, nthCall } from '../testing/faulty-host.ts';
import { Agent } from './agent.ts';
import type { AgentOptions } from './agent-options.ts';

/*
 * A tool call acts on the stage it was planned for: the agent names that stage (and the page's
 * revision) to a host that declares `expect`, holds back a call when the page moved while it
 * waited to send it, and, when the participant's own click got there first, waits for the state
 * it led to and plans again, over a real relay.
 */

const GOAL = 'Two adults for Orbital Drift tomorrow evening in IMAX, seats together';

async function room(options: Omit<FaultyHostOptions, 'url' | 'scenario'> = {}) {
  const server = await startTestRelay();
  const host = await FaultyHost.join({ url: server.url, scenario: defaultScenario(), ...options });
  onTestFinished(() => host.close());
  return { server, host };
}

function agentOn(url: string, options: Partial<AgentOptions>): Agent {
  const agent = new Agent({
    url,
    room: 'default',
    study: 'pilot-01',
    participant: 'P30',
    mode: 'autopilot',
    goal: GOAL,
    requestTimeoutMs: 10_000,
    ...options,
  });
  onTestFinished(() => agent.stop());
  return agent;
}

const asked = (host: FaultyHost) =>
  host.received.some((m) => m.type === 'agent.message' && m.payload.text.includes('Shall I book it?'));

/** Every call this host received named the stage the page showed when it arrived, and its revision. */
function expectCallsOnTheirStage(host: FaultyHost): void {
  for (const call of host.calls) {
    const expected = call.params.expect as { stage?: string; revision?: number } | undefined;
    expect(expected?.stage, `${call.toolName} #${call.index}`).toBe(call.stage);
    expect(typeof expected?.revision).toBe('number');
  }
}

describe('a tool call acts on the stage it was planned for', () => {
  it('names its stage and revision in every call to a host that declares expect, and books', async () => {
    const { server, host } = await room();
    const result = await withinLimit(agentOn(server.url, { returnWhenBlocked: true }).run(), 20_000);
    expect(result.status).toBe('done');
    expect(host.calls.length).toBeGreaterThan(8);
    expect(host.calls.every((c) => c.fate === 'answered')).toBe(true);
    expectCallsOnTheirStage(host);
  });

  it('does not send a call planned on a page the participant changed while the call waited to be sent', async () => {
    const { server, host } = await room();
    const agent = agentOn(server.url, { paceMs: 200 });
    await agent.start();
    let clicked = false;
    const result = await withinLimit(
      agent.instruct({
        text: GOAL,
        confirmSubmit: async () => true,
        observer: {
          // The agent's call for the ticket stage is about to wait its pace: the participant sets the tickets and moves on first.
          calling: (call) => {
            if (call.stage !== 'ticket' || clicked) return;
            clicked = true;
            host.act('setQuantity', { typeId: 'adult', quantity: 2 });
            host.act('next');
          },
        },
      }),
      30_000,
    );
    expect(clicked).toBe(true);
    expect(result.status).toBe('done');
    // Nothing planned for the ticket stage reached the confirm stage, and nothing was refused.
    expectCallsOnTheirStage(host);
    expect(host.calls.every((c) => c.stage !== 'ticket')).toBe(true);
    expect(host.calls.at(-1)).toMatchObject({ toolName: 'next', stage: 'confirm', fate: 'answered' });
  });

  it("waits for the participant's click that got there first, plans again on it, and asks before submitting", async () => {
    // The agent's next on the ticket stage is held at the host until the participant has clicked Next.
    const { server, host } = await room({ hold: nthCall('next', 1, 'ticket') });
    const running = withinLimit(agentOn(server.url, { confirmInChat: true }).run(), 30_000);
    running.catch(() => {});
    await host.nextHeld();
    host.act('next');
    host.release();
    await vi.waitFor(() => expect(asked(host)).toBe(true), { timeout: 20_000, interval: 20 });
    expect(host.protocol.engine.submitted()).toBeNull();
    host.say('yes');
    expect((await running).status).toBe('done');
    const start = await host.waitFor((m) => m.type === 'session.start');
    const log = readLog(join(server.logsDir, `${start.type === 'session.start' ? start.payload.sessionId : ''}.jsonl`));
    // The held next was refused as planned for the ticket stage; the submit came after the yes.
    const refused = log.find(
      (r) =>
        r.type === 'error' && /planned for the ticket stage/.test(String((r.payload as { message?: string }).message)),
    );
    expect(refused).toBeDefined();
    expect(unconfirmedSubmits(log)).toEqual([]);
  });
});
