import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { loadStudyFile } from '../study-file/load.ts';
import { CONSENT_GRACE_MS, NODE_REGISTRY_FLUSH, recruitmentFrom, StudyRegistry } from './registry.ts';

// The demo's first two conditions (alone, autopilot): the balance these counts check is over two.
const LOADED = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
const DEMO = { ...LOADED, conditions: LOADED.conditions.filter((c) => c.guard !== 'each-step') };
const work = mkdtempSync(join(tmpdir(), 'usher-registry-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const NOW = new Date('2026-11-21T10:00:00.000Z');

describe('StudyRegistry', () => {
  it('gives each new participant a room of their own and a balanced condition, with a Latin-square task order', () => {
    const registry = new StudyRegistry(':memory:');
    const admitted = Array.from(
      { length: 20 },
      (_, i) => registry.admit(DEMO, { recruitment: { PROLIFIC_PID: `pid-${i}` }, now: NOW }).participant,
    );
    expect(new Set(admitted.map((p) => p.room)).size).toBe(20);
    for (const p of admitted) expect(p.room).toMatch(/^r-[\w-]{16}$/);
    expect(registry.conditionCounts(DEMO)).toEqual([10, 10]);
    const orders = admitted
      .filter((p) => p.plan.conditionId === 'autopilot')
      .map((p) => p.plan.tasks.map((t) => t.taskId).join(','));
    expect(new Set(orders)).toEqual(new Set(['imax-evening,family-matinee', 'family-matinee,imax-evening']));
    expect(orders.filter((o) => o.startsWith('imax')).length).toBe(5);
  });

  it('hands a returning participant their own record back, whatever they did since', () => {
    const registry = new StudyRegistry(':memory:');
    const first = registry.admit(DEMO, {
      recruitment: { PROLIFIC_PID: 'abc', STUDY_ID: 's', SESSION_ID: 'x' },
      now: NOW,
    });
    expect(first.returning).toBe(false);
    registry.progress(first.participant.id, { status: 'done', taskIndex: 2 }, NOW);
    const again = registry.admit(DEMO, { recruitment: { PROLIFIC_PID: 'abc' }, now: NOW });
    expect(again).toMatchObject({
      returning: true,
      participant: { id: first.participant.id, room: first.participant.room, status: 'done', taskIndex: 2 },
    });
    expect(again.participant.recruitment).toEqual({ PROLIFIC_PID: 'abc', STUDY_ID: 's', SESSION_ID: 'x' });
    // Without an id in the link, every opening is a new participant.
    const anonymous = [1, 2].map(() => registry.admit(DEMO, { recruitment: {}, now: NOW }).participant.id);
    expect(new Set(anonymous).size).toBe(2);
  });

  it('keeps every participant, assignment and step across a restart, and goes on balancing from there', () => {
    const path = join(work, 'registry.sqlite');
    const before = new StudyRegistry(path);
    const ids = [0, 1, 2].map(
      (i) => before.admit(DEMO, { recruitment: { participant: `P${i}` }, now: NOW }).participant,
    );
    before.progress(ids[1]?.id as string, { status: 'task', taskIndex: 1 }, NOW);
    before.close();

    const after = new StudyRegistry(path);
    expect(after.participants(DEMO.id).map((p) => [p.externalId, p.plan, p.status])).toEqual(
      ids.map((p, i) => [`P${i}`, p.plan, i === 1 ? 'task' : 'consent']),
    );
    expect(after.admit(DEMO, { recruitment: { participant: 'P1' }, now: NOW }).participant.taskIndex).toBe(1);
    const next = after.admit(DEMO, { recruitment: { participant: 'P3' }, now: NOW }).participant;
    expect(after.conditionCounts(DEMO)).toEqual([2, 2]);
    expect(after.byRoom(next.room)?.id).toBe(next.id);
    after.close();
  });

  it('balances conditions over those who consented, not over those who opened the link and left', () => {
    const registry = new StudyRegistry(':memory:');
    const arrive = (id: string, at: Date) =>
      registry.admit(DEMO, { recruitment: { participant: id }, now: at, random: () => 0 }).participant;
    // Four open the link; the two in the first condition never consent.
    const early = ['A', 'B', 'C', 'D'].map((id) => arrive(id, NOW));
    const first = DEMO.conditions[0]?.id;
    for (const p of early) {
      if (p.plan.conditionId !== first) registry.progress(p.id, { status: 'briefing' }, NOW);
    }
    expect(early.filter((p) => p.plan.conditionId === first)).toHaveLength(2);
    // Within the grace period they still count; after it, the next arrivals go to the first condition.
    const soon = new Date(NOW.getTime() + 10 * 60_000);
    expect(registry.conditionCounts(DEMO, soon)).toEqual([2, 2]);
    const later = new Date(NOW.getTime() + CONSENT_GRACE_MS + 60_000);
    expect(registry.conditionCounts(DEMO, later)).toEqual([0, 2]);
    expect([arrive('E', later), arrive('F', later)].map((p) => p.plan.conditionId)).toEqual([first, first]);
  });

  it('removes arrivals still at consent from before a moment, counting them per condition, and keeps everyone else', () => {
    const registry = new StudyRegistry(':memory:');
    const arrive = (id: string, at: Date) =>
      registry.admit(DEMO, { recruitment: { participant: id }, now: at }).participant;
    const day = 24 * 60 * 60_000;
    const old = ['A', 'B', 'C', 'D', 'E'].map((id) => arrive(id, NOW));
    registry.progress(old[0]?.id as string, { status: 'briefing' }, NOW);
    registry.progress(old[1]?.id as string, { status: 'done', taskIndex: 2 }, NOW);
    const recent = arrive('F', new Date(NOW.getTime() + day));
    const later = new Date(NOW.getTime() + day + CONSENT_GRACE_MS + 1);
    const counts = registry.conditionCounts(DEMO, later);

    expect(registry.expireArrivals(DEMO.id, new Date(NOW.getTime() + 1))).toBe(3);
    expect(registry.participants(DEMO.id).map((p) => p.externalId)).toEqual(['A', 'B', 'F']);
    const expired = old.slice(2).map((p) => p.plan.conditionId as string);
    const perCondition = DEMO.conditions
      .map((c) => ({ conditionId: c.id, arrivals: expired.filter((id) => id === c.id).length }))
      .filter((c) => c.arrivals > 0);
    expect(registry.expiredArrivals(DEMO.id)).toEqual(perCondition);
    // Assignment had stopped counting them: it balances as before.
    expect(registry.conditionCounts(DEMO, later)).toEqual(counts);
    // Again: nothing more to remove, and the counts add up over several passes.
    expect(registry.expireArrivals(DEMO.id, new Date(NOW.getTime() + 1))).toBe(0);
    expect(registry.expireArrivals(DEMO.id, later)).toBe(1);
    expect(registry.expiredArrivals(DEMO.id).reduce((n, c) => n + c.arrivals, 0)).toBe(4);
    expect(registry.get(recent.id)).toBeNull();
    // One who comes back through the link is a new arrival, with a new room.
    const back = registry.admit(DEMO, { recruitment: { participant: 'C' }, now: later });
    expect(back).toMatchObject({ returning: false, participant: { status: 'consent' } });
    expect(back.participant.room).not.toBe(old[2]?.room);
    // Another study's arrivals are its own.
    expect(registry.expiredArrivals('another-study')).toEqual([]);
  });

  it('keeps a hash of each participant’s return key, and opens a registry made before return keys', () => {
    const path = join(work, 'before-keys.sqlite');
    const registry = new StudyRegistry(path);
    const { participant, returnKey } = registry.admit(DEMO, { recruitment: { participant: 'K1' }, now: NOW });
    expect(returnKey).toMatch(/^[\w-]{32}$/);
    expect(registry.returnKeyMatches(participant.id, returnKey)).toBe(true);
    expect(registry.returnKeyMatches(participant.id, `${returnKey}x`)).toBe(false);
    expect(registry.returnKeyMatches(participant.id, undefined)).toBe(false);
    registry.close();
    // The same file as an older Usher left it: no return_key column.
    const old = new Database(path);
    old.exec('ALTER TABLE participants DROP COLUMN return_key');
    old.close();
    const reopened = new StudyRegistry(path);
    expect(reopened.get(participant.id)?.externalId).toBe('K1');
    expect(reopened.returnKeyMatches(participant.id, returnKey)).toBeNull();
    const later = reopened.admit(DEMO, { recruitment: { participant: 'K2' }, now: NOW });
    expect(reopened.returnKeyMatches(later.participant.id, later.returnKey)).toBe(true);
    reopened.close();
  });

  it('records only the recruitment parameters it knows, and only sane values', () => {
    const query = new URLSearchParams({
      PROLIFIC_PID: '5f1a2b',
      STUDY_ID: 'st-1',
      SESSION_ID: 'se_1',
      other: 'x',
      participant: '<script>',
    });
    expect(recruitmentFrom(query)).toEqual({ PROLIFIC_PID: '5f1a2b', STUDY_ID: 'st-1', SESSION_ID: 'se_1' });
  });

  it('answers durable() only after a flush of its write-ahead log begun once the write was committed', async () => {
    const path = join(work, 'flushed.sqlite');
    const seen: Array<{ file: string; walBytes: number; statuses: string[] }> = [];
    const registry = new StudyRegistry(path, {
      async sync(file) {
        // What the flush covers: the commit is in the log already, as another connection reads it.
        const reader = new Database(path, { readonly: true });
        const rows = reader.prepare<[], { status: string }>('SELECT status FROM participants').all();
        reader.close();
        seen.push({ file, walBytes: statSync(file).size, statuses: rows.map((r) => r.status) });
        await NODE_REGISTRY_FLUSH.sync(file);
      },
    });
    const { participant } = registry.admit(DEMO, { recruitment: { participant: 'F1' }, now: NOW });
    registry.progress(participant.id, { status: 'briefing' }, NOW);
    await registry.durable();
    expect(seen).toEqual([{ file: `${path}-wal`, walBytes: expect.any(Number), statuses: ['briefing'] }]);
    expect(seen[0]?.walBytes).toBeGreaterThan(0);
    // Nothing written since: nothing more to flush.
    await registry.durable();
    expect(seen).toHaveLength(1);
    // A step refused (the participant had moved) writes nothing, and waits for nothing.
    expect(registry.progress(participant.id, { status: 'task' }, NOW, { status: 'consent', taskIndex: 0 })).toBe(false);
    await registry.durable();
    expect(seen).toHaveLength(1);
    registry.close();
  });

  it('loses nothing it acknowledged when its process is killed in the middle of a batch', async () => {
    const path = join(work, 'killed.sqlite');
    const registryModule = new URL('./registry.ts', import.meta.url).pathname;
    const studyModule = new URL('../study-file/load.ts', import.meta.url).pathname;
    const demo = new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname;
    // Batches of ten participants arrive and consent at once; each is acknowledged (printed) once
    // durable() says so, while the next batch is already being written.
    const script = `
      const { StudyRegistry } = await import(${JSON.stringify(registryModule)});
      const { loadStudyFile } = await import(${JSON.stringify(studyModule)});
      const study = loadStudyFile(${JSON.stringify(demo)});
      const registry = new StudyRegistry(${JSON.stringify(path)});
      const now = new Date(${JSON.stringify(NOW.toISOString())});
      for (let batch = 0; ; batch += 1) {
        for (let i = 0; i < 10; i += 1) {
          const id = 'k' + batch + '-' + i;
          const { participant } = registry.admit(study, { recruitment: { participant: id }, now });
          registry.progress(participant.id, { status: 'briefing' }, now);
          registry.durable().then(() => process.stdout.write(id + '\\n'));
        }
        await new Promise((resolve) => setImmediate(resolve));
      }`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const acknowledged: string[] = [];
    let buffered = '';
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        acknowledged.push(...lines);
        if (acknowledged.length >= 300 && child.exitCode === null && !child.killed) {
          child.kill('SIGKILL');
        }
      });
      child.on('exit', () => resolve());
    });
    expect(acknowledged.length).toBeGreaterThanOrEqual(300);
    const after = new StudyRegistry(path);
    const stored = new Map(after.participants(DEMO.id).map((p) => [p.externalId, p.status]));
    const lost = acknowledged.filter((id) => stored.get(id) !== 'briefing');
    expect(lost).toEqual([]);
    after.close();
  }, 60_000);
});
