import net from 'node:net';
import { loadStudyFile, StudyRegistry } from '@usher/study';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { RunningServer } from '../server.ts';
import { openStudyLink, participantApi, startStudyServer, TestClient } from '../testing/index.ts';

/*
 * A study's agents are started by the server itself and reach the relay from the server's own
 * machine, so counted by address they all shared loopback's allowance of
 * `maxConnectionsPerAddress` (64): the 65th participant at once in an agent condition got no agent
 * (its upgrades refused with 503, the supervisor gave up after three tries), and any stranger could
 * bring that about by opening the study link and starting tasks from a few addresses. The server's
 * own agents now count toward `maxConnections` only; everyone else from loopback is still held to
 * the per-address limit.
 */

const LOADED = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
const DEMO = {
  ...LOADED,
  // The demo's first two conditions (alone, autopilot), as these tests count on.
  conditions: LOADED.conditions.filter((c) => c.guard !== 'each-step'),
  questionnaires: {},
};
const SECRET = new TextEncoder().encode('an-own-agents-test-secret-of-enough-length-0123456789');

/**
 * Admits `n` participants and starts their first task in the server's study, in-process (what the
 * study link and the page's steps do), so that no HTTP request needs a socket of the ones strangers
 * hold. Returns the rooms where the condition has an agent.
 */
function startTasks(server: RunningServer, registry: StudyRegistry, n: number): string[] {
  const study = server.study;
  if (!study) throw new Error('not a study server');
  const agentRooms: string[] = [];
  for (let i = 0; i < n; i++) {
    const { participant } = study.admit(new URLSearchParams({ participant: `P${i}` }));
    study.step(participant, { step: 'consent' });
    study.step(study.get(participant.id) as typeof participant, { step: 'start-task' });
    if (registry.byRoom(participant.room)?.plan.tasks[0]?.conditionId === 'autopilot') {
      agentRooms.push(participant.room);
    }
  }
  expect(agentRooms.length).toBeGreaterThan(1);
  return agentRooms;
}

/** Waits until each of `rooms` has its agent (the supervisor tries three times before it gives up). */
async function staffed(server: RunningServer, rooms: string[]): Promise<void> {
  await vi.waitFor(
    () => {
      const withAgent = server.relay.status().filter((r) => rooms.includes(r.room) && r.agents === 1);
      expect(withAgent.map((r) => r.room).sort()).toEqual([...rooms].sort());
    },
    { timeout: 10_000, interval: 50 },
  );
}

/** A raw TCP connection to the server that sends nothing, held until the test ends; resolves once connected. */
function heldSocket(port: number): Promise<{ closed: Promise<void> }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    onTestFinished(() => {
      socket.destroy();
    });
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('connect', () => resolve({ closed }));
    socket.once('close', () => resolve({ closed }));
  });
}

describe("the server's own agents", () => {
  it('each get their connection whatever the per-address limit, which still holds for everyone else', async () => {
    const registry = new StudyRegistry(':memory:');
    onTestFinished(() => registry.close());
    const { server } = await startStudyServer({
      access: 'token',
      secret: SECRET,
      study: DEMO,
      registry,
      limits: { maxConnectionsPerAddress: 1 },
    });

    // Six participants start their first task: the balanced assignment puts three beside an agent.
    const agentRooms: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { room, token } = await openStudyLink(server.url, `participant=P${i}`);
      const { step } = participantApi(server.url, token);
      for (const name of ['consent', 'start-task']) expect((await step({ step: name })).status).toBe(200);
      if (registry.byRoom(room)?.plan.tasks[0]?.conditionId === 'autopilot') agentRooms.push(room);
    }
    expect(agentRooms.length).toBeGreaterThan(1);

    await staffed(server, agentRooms);

    // A stranger's credential, from the same loopback address, is still counted.
    const agent = await server.capabilities?.issue({ kind: 'agent' });
    const options = { headers: { Authorization: `Bearer ${agent}` } };
    await TestClient.connect(server.url, options);
    expect(await TestClient.refusal(server.url, options)).toMatchObject({
      status: 503,
      text: /maxConnectionsPerAddress/,
    });
  });
});

/*
 * The server's own agents counted toward `maxConnections` and reached the relay on its public
 * port, where every socket counts toward `maxSockets`: strangers holding either (32 addresses of
 * 64 connections fill the 2000; 16 of 256 sockets the 4000) kept every participant's agent out
 * too. They now have a door of their own on loopback (`ownAgentsUrl`) and count toward neither;
 * they are bounded by `maxRooms`, one per room whose task the server opened.
 */
describe("the server's own agents, when strangers hold the global limits", () => {
  it('still get their connections while strangers from several addresses hold maxConnections', async () => {
    const registry = new StudyRegistry(':memory:');
    onTestFinished(() => registry.close());
    const { server } = await startStudyServer({
      access: 'token',
      secret: SECRET,
      study: DEMO,
      registry,
      // Each stranger's address counted apart, as behind a trusted proxy: two addresses fill the total.
      trustProxy: ['loopback'],
      limits: { maxConnections: 4, maxConnectionsPerAddress: 2 },
    });
    const agent = await server.capabilities?.issue({ kind: 'agent' });
    const from = (address: string) => ({
      headers: { Authorization: `Bearer ${agent}`, 'X-Forwarded-For': address },
    });
    for (const address of ['198.51.100.1', '198.51.100.1', '198.51.100.2', '198.51.100.2']) {
      await TestClient.connect(server.url, from(address));
    }
    expect(await TestClient.refusal(server.url, from('198.51.100.3'))).toMatchObject({
      status: 503,
      text: /maxConnections\)/,
    });

    await staffed(server, startTasks(server, registry, 6));
    expect(server.relay.load().ownAgents).toBeGreaterThan(1);
    // What the strangers hold is still all there is for them.
    expect((await TestClient.refusal(server.url, from('198.51.100.3'))).status).toBe(503);
  });

  it('still get their connections while strangers hold every socket of maxSockets', async () => {
    const registry = new StudyRegistry(':memory:');
    onTestFinished(() => registry.close());
    const { server } = await startStudyServer({
      access: 'token',
      secret: SECRET,
      study: DEMO,
      registry,
      limits: { maxSockets: 3 },
    });
    for (let i = 0; i < 3; i++) await heldSocket(server.port);
    const refused = await heldSocket(server.port);
    await refused.closed;

    await staffed(server, startTasks(server, registry, 6));
  });

  it('have a door only they may use: a stranger credential there is refused, a plain request is not served', async () => {
    const registry = new StudyRegistry(':memory:');
    onTestFinished(() => registry.close());
    const { server } = await startStudyServer({ access: 'token', secret: SECRET, study: DEMO, registry });
    expect(new URL(server.ownAgentsUrl).hostname).toBe('127.0.0.1');
    for (const capability of [{ kind: 'agent' }, { kind: 'experimenter' }] as const) {
      const token = await server.capabilities?.issue(capability);
      expect(
        await TestClient.refusal(server.ownAgentsUrl, { headers: { Authorization: `Bearer ${token}` } }),
      ).toMatchObject({ status: 403, text: /own agents only/ });
    }
    expect((await TestClient.refusal(server.ownAgentsUrl)).status).toBe(401);
    expect((await fetch(`${server.ownAgentsUrl}/healthz`)).status).toBe(404);
  });
});
