import { defaultScenario } from '@usher/booking';
import { startTestRelay as startTestServer } from '@usher/relay/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import { GREETING } from '../planning/deterministic.ts';
import { FaultyHost } from '../testing/faulty-host.ts';
import { ORBITAL_IMAX_PAIR } from '../testing/stories.ts';
import { Agent } from './agent.ts';
import type { AgentOptions } from './agent-options.ts';
import { CurrentRequest, callBudget } from './request.ts';

/*
 * The agent acts on the booking only when someone asked it to. A participant's own clicks are
 * theirs; an agent that joins a room mid-booking (a hand-back, a restart) carries on with the
 * request in the chat, or waits for one.
 */

/** Long enough for an agent that would act on a click to have sent its first calls (it sends them at once without a pace). */
const QUIET_MS = 1500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function room() {
  const server = await startTestServer();
  const host = await FaultyHost.join({ url: server.url, scenario: defaultScenario() });
  onTestFinished(() => host.close());
  return { server, host };
}

function agentOn(url: string, options: Partial<AgentOptions> = {}): Agent {
  const agent = new Agent({
    url,
    room: 'default',
    study: 'pilot-01',
    participant: 'P11',
    mode: 'autopilot',
    ...options,
  });
  onTestFinished(() => agent.stop());
  return agent;
}

const agentSaid = (host: FaultyHost) =>
  host.received.flatMap((m) => (m.type === 'agent.message' ? [m.payload.text] : []));

describe('the agent acts only when asked', () => {
  it('greets, and a participant’s click alone starts no action; their words then do', async () => {
    const { server, host } = await room();
    const running = agentOn(server.url).run();
    running.catch(() => {});
    await host.waitFor((m) => m.type === 'agent.message' && m.payload.text === GREETING);

    const film = host.protocol.view().uiSpec?.visibleItems.find((i) => !i.isDisabled)?.id;
    host.act('select', { itemId: film });
    host.act('next');
    await sleep(QUIET_MS);
    expect(host.calls).toEqual([]);
    expect(agentSaid(host)).toEqual([GREETING]);

    host.say('two tickets tomorrow evening please');
    await host.waitFor((m) => m.type === 'tool.call');
    // The participant's film stands: the agent goes on from their theater stage.
    expect(host.calls[0]?.stage).toBe('theater');
  });

  it('joining mid-booking, carries on with the request the participant wrote before, and says so', async () => {
    const { server, host } = await room();
    const first = agentOn(server.url);
    first.run().catch(() => {});
    await host.waitFor((m) => m.type === 'agent.message' && m.payload.text === GREETING);
    // An experimenter takes the room over: the agent stops; the participant writes meanwhile.
    first.stop();
    await sleep(200);
    host.say(ORBITAL_IMAX_PAIR.text);
    await sleep(200);
    const result = await agentOn(server.url, { returnWhenBlocked: true }).run();

    expect(result.status).toBe('done');
    expect(host.protocol.engine.submitted()).not.toBeNull();
    const said = agentSaid(host);
    expect(said[0]).toBe(GREETING);
    expect(said[1]).toMatch(
      /^I am back, and I will carry on with what you asked\. Understood: 2 adult tickets, Orbital Drift/,
    );
    expect(said.filter((text) => text === GREETING)).toHaveLength(1);
  });

  it('joining mid-booking with no request in the chat, does nothing and does not greet again', async () => {
    const { server, host } = await room();
    const first = agentOn(server.url).run();
    first.catch(() => {});
    await host.waitFor((m) => m.type === 'agent.message' && m.payload.text === GREETING);
    const film = host.protocol.view().uiSpec?.visibleItems.find((i) => !i.isDisabled)?.id;
    host.act('select', { itemId: film });
    host.act('next');

    // The hand-back: a new agent takes the room over.
    const second = agentOn(server.url).run();
    second.catch(() => {});
    await sleep(QUIET_MS);
    expect(host.calls).toEqual([]);
    expect(agentSaid(host)).toEqual([GREETING]);
  });
});

describe('a request’s bounds', () => {
  it('allows ten shortest bookings’ worth of calls, then says the budget is spent', () => {
    const request = new CurrentRequest();
    request.open(100);
    expect(callBudget(2)).toBe(160);
    expect(request.overrun(100 + 159, null, 2)).toBeNull();
    expect(request.overrun(100 + 160, null, 2)).toMatch(/160 changes on the page/);
  });

  it('stops when the page comes back to one state again and again', () => {
    const request = new CurrentRequest();
    request.open(0);
    const spec = { stage: 'time', state: { selected: 'sh-1', booking: { movie: { id: 'm1' } } } } as never;
    const other = { stage: 'date', state: { selected: '2026-12-01' } } as never;
    let stop: string | null = null;
    for (let i = 0; i < 13 && !stop; i++) {
      stop = request.overrun(2 * i, spec, 1) ?? request.overrun(2 * i + 1, other, 1);
    }
    expect(stop).toMatch(/same time step/);
    // A new request counts from nothing.
    request.open(40);
    expect(request.overrun(41, spec, 1)).toBeNull();
  });
});
