import { defaultScenario } from '@usher/booking';
import type { MessageOf } from '@usher/protocol';
import { startTestRelay } from '@usher/relay/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import { FaultyHost } from '../testing/faulty-host.ts';
import { ORBITAL_IMAX_PAIR } from '../testing/stories.ts';
import { Agent } from './agent.ts';
import type { AgentOptions } from './agent-options.ts';

/*
 * Step approval (guard: each-step) and the participant's pause, on a real relay with a headless
 * host: each tool call is proposed first and sent only once approved; a rejected choice is set
 * aside and the next best proposed; a paused agent sends nothing until resumed.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function room() {
  const server = await startTestRelay();
  const host = await FaultyHost.join({ url: server.url, scenario: defaultScenario() });
  onTestFinished(() => host.close());
  return { server, host };
}

function agentOn(url: string, options: Partial<AgentOptions> = {}): Agent {
  const agent = new Agent({
    url,
    room: 'default',
    study: 'pilot-01',
    participant: 'P7',
    mode: 'autopilot',
    ...options,
  });
  onTestFinished(() => agent.stop());
  agent.run().catch(() => {});
  return agent;
}

/** The agent has greeted: it is in the room and listening. */
const greeted = (host: FaultyHost) => host.waitFor((m) => m.type === 'agent.message');

type Proposal = MessageOf<'agent.proposal'>;
const proposals = (host: FaultyHost) => host.received.filter((m): m is Proposal => m.type === 'agent.proposal');

/** The proposal after the first `seen`, once it comes. */
async function proposalAfter(host: FaultyHost, seen: number): Promise<Proposal> {
  await expect.poll(() => proposals(host).length, { timeout: 10_000 }).toBeGreaterThan(seen);
  return proposals(host)[seen] as Proposal;
}

/** Approves every proposal until one matches `until`; returns that one, undecided. */
async function approveUntil(host: FaultyHost, until: (p: Proposal) => boolean): Promise<Proposal> {
  for (let seen = 0; ; seen++) {
    const proposal = await proposalAfter(host, seen);
    if (until(proposal)) return proposal;
    host.decide(proposal.payload.proposalId, 'approve');
  }
}

describe('step approval', () => {
  it('sends each tool call only after its proposal is approved, and sets a rejected choice aside', async () => {
    const { server, host } = await room();
    const agent = agentOn(server.url, { proposeEachStep: true });
    await greeted(host);
    host.say(ORBITAL_IMAX_PAIR.text);
    const first = await proposalAfter(host, 0);
    expect(first.payload).toMatchObject({ tool: 'select', args: { itemId: 'm-orbital-drift' } });
    expect(agent.activity).toBe('asking');
    // The one line in the chat says what and why, and how to answer.
    await host.waitFor(
      (m) => m.type === 'agent.message' && m.payload.text.startsWith('Next step: select Orbital Drift. '),
    );
    await sleep(300);
    expect(host.calls).toEqual([]);
    host.decide(first.payload.proposalId, 'approve');
    await expect.poll(() => host.calls.length).toBe(1);
    expect(host.calls[0]).toMatchObject({ toolName: 'select', params: { itemId: 'm-orbital-drift' } });

    // On the theater stage, the agent's pick is rejected: it proposes another theater, and sends nothing meanwhile.
    const theater = await approveUntil(
      host,
      (p) => p.payload.tool === 'select' && String(p.payload.args.itemId).startsWith('t-'),
    );
    const calls = host.calls.length;
    host.decide(theater.payload.proposalId, 'reject');
    const other = await proposalAfter(host, proposals(host).indexOf(theater) + 1);
    expect(other.payload.tool).toBe('select');
    expect(other.payload.args.itemId).not.toBe(theater.payload.args.itemId);
    expect(String(other.payload.args.itemId)).toMatch(/^t-/);
    expect(host.calls).toHaveLength(calls);

    // A yes typed in the chat approves too; the typed words show in the chat.
    host.decide(other.payload.proposalId, 'approve', 'yes');
    await expect.poll(() => host.calls.length).toBe(calls + 1);
    expect(host.calls.at(-1)).toMatchObject({ toolName: 'select', params: { itemId: other.payload.args.itemId } });
    expect(host.protocol.view().messageHistory.some((m) => m.role === 'participant' && m.text === 'yes')).toBe(true);

    // A decision on a proposal that is not open changes nothing.
    const sent = host.calls.length;
    host.decide(theater.payload.proposalId, 'approve');
    await sleep(400);
    expect(host.calls).toHaveLength(sent);
  }, 60_000);

  it('books once every step is approved, and a rejection with words is a correction it plans again from', async () => {
    const { server, host } = await room();
    agentOn(server.url, { proposeEachStep: true });
    await greeted(host);
    host.say(ORBITAL_IMAX_PAIR.text);
    const time = await approveUntil(host, (p) => String(p.payload.args.itemId).startsWith('sh-'));
    const said = host.received.length;
    host.decide(time.payload.proposalId, 'reject', 'no, three adult tickets please');
    await host.waitFor(
      (m) => m.type === 'agent.message' && host.received.indexOf(m) >= said && /3 adult/.test(m.payload.text),
    );
    // Approved to the end, the booking follows the correction.
    for (let seen = proposals(host).indexOf(time) + 1; host.protocol.engine.submitted() === null; await sleep(20)) {
      const next = proposals(host)[seen];
      if (next) {
        host.decide(next.payload.proposalId, 'approve');
        seen += 1;
      }
    }
    expect(host.protocol.engine.submitted()?.seats).toHaveLength(3);
  }, 60_000);
});

describe('pause', () => {
  it('stops the agent within one action; nothing is sent until it is resumed, then it goes on', async () => {
    const { server, host } = await room();
    const agent = agentOn(server.url, { paceMs: 150 });
    await greeted(host);
    host.say(ORBITAL_IMAX_PAIR.text);
    await host.toolCallNumber(2);
    agent.hold();
    const atPause = host.calls.length;
    await sleep(1200);
    // The call already on its way may land; nothing after it.
    expect(host.calls.length).toBeLessThanOrEqual(atPause + 1);
    const held = host.calls.length;
    await sleep(600);
    expect(host.calls.length).toBe(held);
    expect(agent.activity).not.toBe('acting');
    agent.release();
    await host.toolCallNumber(held + 1);
    await expect.poll(() => host.protocol.engine.submitted(), { timeout: 20_000 }).not.toBeNull();
  });
});
