import { defaultScenario } from '@usher/booking';
import { startTestRelay } from '@usher/relay/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import { FaultyHost } from '../testing/faulty-host.ts';
import { ORBITAL_IMAX_PAIR } from '../testing/stories.ts';
import { Agent } from './agent.ts';
import type { AgentActivity, AgentOptions } from './agent-options.ts';

/*
 * What the agent is doing (`activity`), told to `onActivity` when it changes and only then: on a
 * real relay with a host, the values told are the getter's at that moment, never the same twice in
 * a row, and the getter, read at any moment between, is the last value told (no change is missed).
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function room() {
  const server = await startTestRelay();
  const host = await FaultyHost.join({ url: server.url, scenario: defaultScenario() });
  onTestFinished(() => host.close());
  return { server, host };
}

interface Watched {
  agent: Agent;
  /** Every value told, in order. */
  told: AgentActivity[];
  /** The getter read when each value was told. */
  readThen: AgentActivity[];
  /** Times the getter, read between the agent's steps, differed from the last value told. */
  missed: string[];
  run: Promise<unknown>;
}

function watched(url: string, options: Partial<AgentOptions> = {}): Watched {
  const told: AgentActivity[] = [];
  const readThen: AgentActivity[] = [];
  const missed: string[] = [];
  const agent: Agent = new Agent({
    url,
    room: 'default',
    study: 'pilot-01',
    participant: 'P7',
    mode: 'autopilot',
    ...options,
    onActivity: (activity) => {
      told.push(activity);
      readThen.push(agent.activity);
    },
  });
  // Read between the agent's steps, every few milliseconds: a change not told would show here.
  const sampler = setInterval(() => {
    const last = told.at(-1) ?? 'idle';
    if (agent.activity !== last) missed.push(`${agent.activity} while ${last} was last told`);
  }, 2);
  onTestFinished(() => {
    clearInterval(sampler);
    agent.stop();
  });
  const run = agent.run();
  run.catch(() => {});
  return { agent, told, readThen, missed, run };
}

const greeted = (host: FaultyHost) => host.waitFor((m) => m.type === 'agent.message');

/** No value told twice in a row. */
function noRepeats(told: readonly AgentActivity[]): boolean {
  return told.every((value, i) => i === 0 || told[i - 1] !== value);
}

describe("the agent's activity, told when it changes", () => {
  it('tells acting, asking, waiting and idle once each time they change, in order, through a booking', async () => {
    const { server, host } = await room();
    const w = watched(server.url, { confirmInChat: true, paceMs: 30 });
    await greeted(host);
    // Greeted, it waits for the participant's words.
    await expect.poll(() => w.told.at(-1)).toBe('waiting');
    expect(w.told).toEqual(['waiting']);
    host.say(ORBITAL_IMAX_PAIR.text);
    await host.waitFor((m) => m.type === 'agent.message' && m.payload.text.includes('Shall I book it?'));
    await expect.poll(() => w.told.at(-1)).toBe('asking');
    const beforeYes = w.told.length;
    const callsBeforeYes = host.calls.length;
    host.say('yes');
    const result = await w.run;
    expect(result).toMatchObject({ status: 'done' });

    expect(w.missed).toEqual([]);
    expect(w.readThen).toEqual(w.told);
    expect(noRepeats(w.told)).toBe(true);
    // Its words end the wait; each tool call is acting, with idle between; then the question.
    expect(w.told.slice(0, beforeYes)).toEqual([
      'waiting',
      'idle',
      ...Array.from({ length: callsBeforeYes }, () => ['acting', 'idle']).flat(),
      'asking',
    ]);
    // The yes closes the question; the submit is one more call.
    expect(w.told.slice(beforeYes)).toEqual(['idle', 'acting', 'idle']);
    expect(host.calls.length).toBe(callsBeforeYes + 1);
  });

  it('tells a pause and a resume once, and nothing when nothing changed', async () => {
    const { server, host } = await room();
    // A long pace: the agent is acting (waiting out its pace) when it is paused.
    const w = watched(server.url, { paceMs: 60_000 });
    await greeted(host);
    await expect.poll(() => w.told.at(-1)).toBe('waiting');
    // Paused while it waits for words: the wait ends, it holds still.
    w.agent.hold();
    await expect.poll(() => w.told.at(-1)).toBe('idle');
    expect(w.told).toEqual(['waiting', 'idle']);
    // Pausing again, and time passing, change nothing: nothing is told.
    w.agent.hold();
    await sleep(300);
    expect(w.told).toEqual(['waiting', 'idle']);
    // Resumed with nothing asked: back to waiting for words.
    w.agent.release();
    await expect.poll(() => w.told.at(-1)).toBe('waiting');
    host.say(ORBITAL_IMAX_PAIR.text);
    await expect.poll(() => w.told.at(-1)).toBe('acting');
    expect(w.told).toEqual(['waiting', 'idle', 'waiting', 'idle', 'acting']);
    // Paused while it waits out its pace: the call is not sent, and it is idle until resumed.
    w.agent.hold();
    await expect.poll(() => w.told.at(-1)).toBe('idle');
    await sleep(300);
    expect(w.told).toEqual(['waiting', 'idle', 'waiting', 'idle', 'acting', 'idle']);
    expect(host.calls).toEqual([]);
    // Releasing an agent not paused, or pausing one paused, tells nothing.
    w.agent.hold();
    await sleep(100);
    w.agent.release();
    await expect.poll(() => w.told.at(-1)).toBe('acting');
    w.agent.release();
    await sleep(200);
    expect(w.told).toEqual(['waiting', 'idle', 'waiting', 'idle', 'acting', 'idle', 'acting']);
    expect(w.missed).toEqual([]);
    expect(w.readThen).toEqual(w.told);
  });

  it('asks for each step and tells asking while a proposal is open', async () => {
    const { server, host } = await room();
    const w = watched(server.url, { proposeEachStep: true });
    await greeted(host);
    host.say(ORBITAL_IMAX_PAIR.text);
    const proposal = await host.waitFor((m) => m.type === 'agent.proposal');
    await expect.poll(() => w.told.at(-1)).toBe('asking');
    expect(w.told).toEqual(['waiting', 'idle', 'asking']);
    if (proposal.type !== 'agent.proposal') throw new Error('not a proposal');
    host.decide(proposal.payload.proposalId, 'approve');
    await host.waitFor((m) => m.type === 'agent.proposal' && m.payload.proposalId !== proposal.payload.proposalId);
    await expect.poll(() => w.told.at(-1)).toBe('asking');
    expect(w.told).toEqual(['waiting', 'idle', 'asking', 'idle', 'acting', 'idle', 'asking']);
    expect(w.missed).toEqual([]);
    expect(w.readThen).toEqual(w.told);
  });
});
