import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  // Regression: `usher serve` reopened at start the session of every participant the registry
  // held mid-task, past maxRooms: tasks strangers started and left stay "task" in the registry
  // (1000 rooms' worth every idleSessionMs), and a restart opened a room, a log file and an agent
  // for each of them at once, until descriptors ran out and the start failed.
  it('are reopened after a restart only up to maxRooms, the latest first; the rest when their page comes back', async () => {
    const work = mkdtempSync(join(tmpdir(), 'usher-study-rooms-'));
    onTestFinished(() => rmSync(work, { recursive: true, force: true }));
    const path = join(work, 'registry.sqlite');
    const seeded = new StudyRegistry(path);
    for (const id of ['P1', 'P2', 'P3']) {
      const participant = seeded.admit(DEMO, {
        recruitment: { participant: id },
        now: new Date('2026-11-25T10:00:00Z'),
      }).participant;
      seeded.progress(participant.id, { status: 'briefing' }, new Date(`2026-11-25T10:00:0${id[1]}Z`), {
        status: 'consent',
        taskIndex: 0,
      });
      seeded.progress(participant.id, { status: 'task' }, new Date(`2026-11-25T10:01:0${id[1]}Z`), {
        status: 'briefing',
        taskIndex: 0,
      });
    }
    seeded.close();

    const registry = new StudyRegistry(path);
    onTestFinished(() => registry.close());
    const server = await startTestServer({ study: { study: DEMO, registry }, limits: { maxRooms: 2 } });
    const study = server.study as NonNullable<typeof server.study>;
    expect(study.resumeAll()).toEqual({ resumed: 2, waiting: 1 });
    expect(server.relay.load().rooms).toBe(2);
    const rooms = new Set(server.relay.status().map((r) => r.room));
    const byExternal = (id: string) => registry.participants(DEMO.id).find((p) => p.externalId === id);
    expect(rooms).toEqual(new Set([byExternal('P3')?.room, byExternal('P2')?.room]));
  });
});
