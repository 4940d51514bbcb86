import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NODE_FILE_IO } from '@usher/relay';
import { loadStudyFile, NODE_REGISTRY_FLUSH, StudyRegistry } from '@usher/study';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../testing/index.ts';

const DEMO = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
const work = mkdtempSync(join(tmpdir(), 'usher-durable-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const NOW = new Date('2026-11-21T10:00:00.000Z');

/** A gate a flush waits at until the test opens it. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** Waits until `check` holds, looking again at each turn of the event loop. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

async function studyServer(name: string, sync: (file: string) => Promise<void>, syncLog = NODE_FILE_IO.syncLater) {
  const registry = new StudyRegistry(join(work, `${name}.sqlite`), { sync });
  const server = await startTestServer({
    study: { study: DEMO, registry },
    now: () => NOW,
    logIo: { ...NODE_FILE_IO, syncLater: syncLog },
  });
  const admit = async (id: string) => {
    const link = await fetch(`${server.url}/s/demo-01?participant=${id}`, { redirect: 'manual' });
    return new URL(link.headers.get('location') as string, server.url).searchParams.get('room') as string;
  };
  const call = async (room: string, route: string, body?: object) => {
    const response = await fetch(`${server.url}/api/participant${route}?room=${room}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'Content-Type': 'application/json' },
      ...(body && { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json() };
  };
  return { registry, server, admit, call };
}

describe('answers in study mode wait for the disk', () => {
  it('answers a step only once a flush of the registry begun after its write has returned', async () => {
    const events: string[] = [];
    let held: ReturnType<typeof gate> | null = null;
    const { registry, admit, call } = await studyServer('step', async (file) => {
      events.push('flush begun');
      if (held) await held.opened;
      await NODE_REGISTRY_FLUSH.sync(file);
      events.push('flush done');
    });
    const room = await admit('d1');
    events.length = 0;
    held = gate();
    const answered = call(room, '/step', { step: 'consent' }).then((r) => {
      events.push('answered');
      return r;
    });
    await until(() => events.includes('flush begun'));
    // The step is committed (the registry says so) but not answered while its flush is held.
    expect(registry.byRoom(room)?.status).toBe('briefing');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toEqual(['flush begun']);
    held.open();
    expect((await answered).body.status).toBe('briefing');
    expect(events).toEqual(['flush begun', 'flush done', 'answered']);
  });

  it("shares one flush among the steps of participants who answer while another flush runs, each answered after its own write's flush", async () => {
    let flushes = 0;
    let held: ReturnType<typeof gate> | null = null;
    const { registry, admit, call } = await studyServer('batch', async (file) => {
      flushes += 1;
      if (held) await held.opened;
      await NODE_REGISTRY_FLUSH.sync(file);
    });
    const rooms = await Promise.all(Array.from({ length: 20 }, (_, i) => admit(`b${i}`)));
    flushes = 0;
    held = gate();
    const answers = rooms.map((room) => call(room, '/step', { step: 'consent' }));
    // All twenty consented in the registry while the first flush was held.
    await until(() => rooms.every((room) => registry.byRoom(room)?.status === 'briefing'));
    expect(flushes).toBe(1);
    held.open();
    const bodies = await Promise.all(answers);
    expect(bodies.map((b) => b.body.status)).toEqual(rooms.map(() => 'briefing'));
    // The first flush covered the first write only; one more covered the nineteen others.
    expect(flushes).toBe(2);
  });

  it("answers a task's end only once its study log is on disk", async () => {
    const events: string[] = [];
    const { admit, call } = await studyServer(
      'log',
      (file) => NODE_REGISTRY_FLUSH.sync(file),
      async (fd) => {
        events.push('log flush begun');
        await NODE_FILE_IO.syncLater(fd);
        events.push('log flushed');
      },
    );
    const room = await admit('l1');
    await call(room, '/step', { step: 'consent' });
    await call(room, '/step', { step: 'start-task' });
    const ended = await call(room, '/step', { step: 'end-task', outcome: 'done' });
    events.push('answered');
    expect(ended.body.status).toBe('task-questionnaire');
    expect(events).toEqual(['log flush begun', 'log flushed', 'answered']);
  });

  it('answers 503 STORAGE_FAILED once a flush of the registry failed, and from then on', async () => {
    let fail = false;
    const { admit, call } = await studyServer('failed', async (file) => {
      if (fail) throw new Error('EIO: i/o error');
      await NODE_REGISTRY_FLUSH.sync(file);
    });
    const room = await admit('f1');
    fail = true;
    const step = await call(room, '/step', { step: 'consent' });
    expect([step.status, step.body.error.code]).toEqual([503, 'STORAGE_FAILED']);
    fail = false;
    const again = await call(room, '');
    expect([again.status, again.body.error.code]).toEqual([503, 'STORAGE_FAILED']);
  });
});
