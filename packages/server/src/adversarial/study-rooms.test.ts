import { loadStudyFile, StudyRegistry } from '@usher/study';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startTestServer } from '../testing/fixtures.ts';

/*
 * Anyone may open a study link and start a task, and each task opens a room with a study log (an
 * open file) and, in an agent condition, an agent with its connection. `maxRooms` bounded only
 * rooms opened by a relay.join, so a stranger admitting participants from many addresses (30 a
 * minute each) opened rooms, files and agents past it without limit. A task now starts only while
 * the server is below `maxRooms`; past it the start is refused with 503 and nothing changes.
 */

const DEMO = {
  ...loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname),
  questionnaires: {},
};
const SECRET = new TextEncoder().encode('a-study-rooms-test-secret-of-enough-length-0123456789');

describe('rooms opened by starting tasks', () => {
  it('stop at maxRooms: the next start is refused (503) and changes nothing, and goes once a room is freed', async () => {
    const registry = new StudyRegistry(':memory:');
    onTestFinished(() => registry.close());
    const server = await startTestServer({
      access: 'token',
      secret: SECRET,
      study: { study: DEMO, registry },
      limits: { maxRooms: 2 },
    });
    const admit = async (id: string) => {
      const link = await fetch(`${server.url}/s/demo-01?participant=${id}`, { redirect: 'manual' });
      const page = new URL(link.headers.get('location') as string, server.url).searchParams;
      const token = page.get('token');
      const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
      const step = async (body: object) => {
        const response = await fetch(`${server.url}/api/participant/step`, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
        });
        return { status: response.status, body: await response.json() };
      };
      expect((await step({ step: 'consent' })).status).toBe(200);
      return Object.assign(step, { room: page.get('room') as string });
    };
    const first = await admit('P1');
    const second = await admit('P2');
    const third = await admit('P3');
    expect((await first({ step: 'start-task' })).status).toBe(200);
    expect((await second({ step: 'start-task' })).status).toBe(200);
    expect(server.relay.load().rooms).toBe(2);

    const refused = await third({ step: 'start-task' });
    expect(refused).toMatchObject({ status: 503, body: { error: { code: 'STUDY_FULL' } } });
    expect(refused.body.error.message).toMatch(/maxRooms/);
    expect(server.relay.load().rooms).toBe(2);
    expect(registry.byRoom(third.room)?.status).toBe('briefing');

    // The first task ends: its room is freed, and the third participant's task starts.
    expect((await first({ step: 'end-task', outcome: 'done' })).status).toBe(200);
    expect((await third({ step: 'start-task' })).status).toBe(200);
    expect(server.relay.load().rooms).toBe(2);
    // A participant mid-task whose page reloads keeps their room: it is theirs already.
    expect((await second({ step: 'start-task' })).status).toBe(200);
  });
});
