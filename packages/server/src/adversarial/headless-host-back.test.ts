import { defaultScenario } from '@usher/booking';
import type { Capabilities } from '@usher/relay';
import { describe, expect, it, vi } from 'vitest';
import { startTestServer, TestClient } from '../testing/index.ts';

/*
 * With --access token --headless-host, a page holding the room's host token may join as the host
 * and replace the headless host. When that page leaves, the headless host comes back, so the room
 * and the participant API do not stay without a host until a restart.
 */

const SECRET = new TextEncoder().encode('a-headless-host-test-secret-of-enough-length-012345');

describe('the headless host after a page replaced it', () => {
  it('stays out while the page is there, and is back in the room once the page has left', async () => {
    const server = await startTestServer({
      access: 'token',
      secret: SECRET,
      headlessHost: true,
      scenario: defaultScenario(),
    });
    const caps = server.capabilities as Capabilities;
    const host = await caps.issue({ kind: 'host', room: 'default' });
    const experimenter = await caps.issue({ kind: 'experimenter' });
    const say = () =>
      fetch(`${server.url}/api/rooms/default/participant/message`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${host}` },
        body: JSON.stringify({ text: 'hello' }),
      });
    const hostInRoom = async () => {
      const rooms = (await (
        await fetch(`${server.url}/api/rooms`, { headers: { Authorization: `Bearer ${experimenter}` } })
      ).json()) as { rooms: Array<{ room: string; host: boolean }> };
      return rooms.rooms.find((r) => r.room === 'default')?.host === true;
    };

    const page = await TestClient.join(server.url, 'host', 'default', host);
    // The page is the host now: the headless host does not take the room back from it.
    await new Promise((r) => setTimeout(r, 2500));
    expect((await say()).status).toBe(409);
    expect(await hostInRoom()).toBe(true);

    page.close();
    await vi.waitFor(async () => expect((await say()).status).toBe(202), { timeout: 10_000, interval: 250 });
    expect(await hostInRoom()).toBe(true);
    expect(server.headlessHost?.view().messageHistory.at(-1)).toMatchObject({ text: 'hello' });
  }, 30_000);
});
