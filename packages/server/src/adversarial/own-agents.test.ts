import { loadStudyFile, StudyRegistry } from '@usher/study';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { startStudyServer } from '../testing/fixtures.ts';
import { TestClient } from '../testing/test-client.ts';

/*
 * A study's agents are started by the server itself and reach the relay from the server's own
 * machine, so counted by address they all shared loopback's allowance of
 * `maxConnectionsPerAddress` (64): the 65th participant at once in an agent condition got no agent
 * (its upgrades refused with 503, the supervisor gave up after three tries), and any stranger could
 * bring that about by opening the study link and starting tasks from a few addresses. The server's
 * own agents now count toward `maxConnections` only; everyone else from loopback is still held to
 * the per-address limit.
 */

const DEMO = {
  ...loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname),
  questionnaires: {},
};
const SECRET = new TextEncoder().encode('an-own-agents-test-secret-of-enough-length-0123456789');

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
      const link = await fetch(`${server.url}/s/demo-01?participant=P${i}`, { redirect: 'manual' });
      const page = new URL(link.headers.get('location') as string, server.url);
      const headers = {
        Authorization: `Bearer ${page.searchParams.get('token')}`,
        'Content-Type': 'application/json',
      };
      for (const step of ['consent', 'start-task']) {
        const moved = await fetch(`${server.url}/api/participant/step`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ step }),
        });
        expect(moved.status).toBe(200);
      }
      const room = page.searchParams.get('room') as string;
      if (registry.byRoom(room)?.plan.tasks[0]?.conditionId === 'autopilot') agentRooms.push(room);
    }
    expect(agentRooms.length).toBeGreaterThan(1);

    await vi.waitFor(
      () => {
        const staffed = server.relay.status().filter((r) => agentRooms.includes(r.room) && r.agents === 1);
        expect(staffed.map((r) => r.room).sort()).toEqual([...agentRooms].sort());
      },
      { timeout: 10_000, interval: 50 },
    );

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
