import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadStudyFile, NODE_REGISTRY_FLUSH, type RegistryFlush, StudyRegistry } from '@usher/study';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../testing/index.ts';

const DEMO = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
const work = mkdtempSync(join(tmpdir(), 'usher-answers-durable-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const NOW = new Date('2026-11-21T10:00:00.000Z');

/** Waits until `check` holds, looking again at each turn of the event loop. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

/** A server of the demo study, and a participant of it on their first task's questionnaire. */
async function atQuestionnaire(name: string, sync: RegistryFlush['sync'] = NODE_REGISTRY_FLUSH.sync, id = 'q1') {
  const logsDir = join(work, name);
  mkdirSync(logsDir, { recursive: true });
  const registryPath = join(work, `${name}.sqlite`);
  const registry = new StudyRegistry(registryPath);
  const warnings: string[] = [];
  const server = await startTestServer({
    study: { study: DEMO, registry, answersFlush: { sync } },
    now: () => NOW,
    logsDir,
    warn: (line) => warnings.push(line),
  });
  const link = await fetch(`${server.url}/s/demo-01?participant=${id}`, { redirect: 'manual' });
  const room = new URL(link.headers.get('location') as string, server.url).searchParams.get('room') as string;
  // biome-ignore lint/suspicious/noExplicitAny: the answers are what the assertions check
  const call = async (route: string, body?: object): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${server.url}/api/participant${route}?room=${room}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'Content-Type': 'application/json' },
      ...(body && { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json() };
  };
  await call('/step', { step: 'consent' });
  await call('/step', { step: 'start-task' });
  await call('/step', { step: 'end-task', outcome: 'done' });
  const participant = registry.byRoom(room);
  if (!participant) throw new Error('not admitted');
  const answers = {
    effort: 2,
    confident: 5,
    ...(participant.plan.conditionId !== 'alone' && { useful: 4, trust: 3 }),
    obstacle: 'the seat map',
  };
  const submit = () => call('/questionnaire', { questionnaire: 'per-task', answers });
  const log = join(logsDir, 'demo-01.questionnaires.jsonl');
  return { server, registry, registryPath, logsDir, log, warnings, call, submit, participant };
}

const records = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the questionnaire log, flushed off the event loop', () => {
  it('answers a questionnaire only once a flush of the log begun after its record was written has returned', async () => {
    const events: string[] = [];
    let hold: Promise<void> | null = null;
    let open = () => {};
    const { registry, log, submit, participant } = await atQuestionnaire('held', async (path) => {
      events.push('flush begun');
      if (hold) await hold;
      await NODE_REGISTRY_FLUSH.sync(path);
      events.push('flush done');
    });
    hold = new Promise<void>((resolve) => {
      open = resolve;
    });
    const answered = submit().then((r) => {
      events.push('answered');
      return r;
    });
    await until(() => events.includes('flush begun'));
    // Stored in the registry and written to the log, in one transaction, but not answered while its flush is held.
    expect(registry.get(participant.id)?.status).not.toBe('task-questionnaire');
    expect(records(log)).toEqual([
      expect.objectContaining({ participantId: participant.id, questionnaire: 'per-task' }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toEqual(['flush begun']);
    open();
    expect((await answered).status).toBe(200);
    expect(events).toEqual(['flush begun', 'flush done', 'answered']);
  });

  it('answers 503 STORAGE_FAILED once a flush of the log failed, and from then on', async () => {
    let fail = false;
    const { submit, call } = await atQuestionnaire('failed', async (path) => {
      if (fail) throw new Error('EIO: i/o error');
      await NODE_REGISTRY_FLUSH.sync(path);
    });
    fail = true;
    const answered = await submit();
    expect([answered.status, answered.body.error.code]).toEqual([503, 'STORAGE_FAILED']);
    fail = false;
    const again = await call('');
    expect([again.status, again.body.error.code]).toEqual([503, 'STORAGE_FAILED']);
  });

  it('gets back at the next start what a crash before its flush lost: the registry’s questionnaire added, a torn line cut', async () => {
    const first = await atQuestionnaire('mend');
    expect((await first.submit()).status).toBe(200);
    const [taken] = records(first.log);
    // As a crash may leave it: the registry committed the questionnaire, the log's record never
    // reached the disk, and a record being written when it came was cut short.
    writeFileSync(first.log, '{"studyId":"demo-01","participantId":"torn');
    await first.server.close();

    const registry = new StudyRegistry(first.registryPath);
    const warnings: string[] = [];
    const study = { study: DEMO, registry };
    await startTestServer({ study, now: () => NOW, logsDir: first.logsDir, warn: (line) => warnings.push(line) });
    expect(warnings).toEqual([
      expect.stringMatching(/^study: 1 questionnaire the registry holds was missing from .*added from the registry$/),
    ]);
    const mended = records(first.log);
    expect(mended).toEqual([{ ...taken, recovered: true }]);
    expect(readFileSync(first.log, 'utf8').endsWith('\n')).toBe(true);

    // Nothing is added twice: the next start finds the log whole.
    const again: string[] = [];
    await startTestServer({ study, now: () => NOW, logsDir: first.logsDir, warn: (line) => again.push(line) });
    expect(again).toEqual([]);
    expect(records(first.log)).toEqual(mended);
  });

  it('creates no log, and adds nothing, where no questionnaire was taken', async () => {
    const logsDir = join(work, 'none');
    mkdirSync(logsDir);
    await startTestServer({ study: { study: DEMO, registry: new StudyRegistry(':memory:') }, logsDir });
    expect(existsSync(join(logsDir, 'demo-01.questionnaires.jsonl'))).toBe(false);
  });
});
