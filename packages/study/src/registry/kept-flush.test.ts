import { appendFileSync, mkdtempSync, readdirSync, readlinkSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadStudyFile } from '../study-file/load.ts';
import { KeptFileFlush } from './kept-flush.ts';
import { NODE_REGISTRY_FLUSH, StudyRegistry } from './registry.ts';

/*
 * The group flushes' descriptor kept open between flushes: one descriptor for many flushes, always
 * of the file the path names now (a file renamed away or deleted is let go), let go when idle and
 * at close. Which files the process holds open is read from /proc/self/fd.
 */

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'usher-kept-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The descriptors of this process open on `path` (a deleted file's read `<path> (deleted)`). */
function descriptorsOn(path: string): { now: string[]; deleted: string[] } {
  const now: string[] = [];
  const deleted: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue;
    }
    if (target === path) now.push(fd);
    else if (target === `${path} (deleted)`) deleted.push(fd);
  }
  return { now, deleted };
}

const DEMO = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
const NOW = new Date('2026-11-21T10:00:00.000Z');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('KeptFileFlush', () => {
  it('flushes many times through one descriptor of the file, which the stateless flush does not keep', async () => {
    const path = join(folder(), 'log.jsonl');
    appendFileSync(path, 'one\n');
    const flush = new KeptFileFlush(60_000);
    onTestFinished(() => flush.close());
    await flush.sync(path);
    const first = descriptorsOn(path).now;
    expect(first).toHaveLength(1);
    for (let i = 0; i < 5; i++) {
      appendFileSync(path, `line ${i}\n`);
      await flush.sync(path);
    }
    // Several flushes at once share it too.
    await Promise.all([flush.sync(path), flush.sync(path), flush.sync(path)]);
    expect(descriptorsOn(path).now).toEqual(first);
    expect(flush.open).toBe(1);

    flush.close();
    expect(descriptorsOn(path).now).toEqual([]);
    await expect(flush.sync(path)).rejects.toThrow(/closed/);
    // The flush it replaces opens and closes the file each time.
    await NODE_REGISTRY_FLUSH.sync(path);
    expect(descriptorsOn(path).now).toEqual([]);
  });

  it('follows the path: a file renamed away or deleted is let go, and a missing file fails the flush', async () => {
    const dir = folder();
    const path = join(dir, 'log.jsonl');
    appendFileSync(path, 'one\n');
    const flush = new KeptFileFlush(60_000);
    onTestFinished(() => flush.close());
    await flush.sync(path);
    const [held] = descriptorsOn(path).now;

    // Renamed away and a new file made at the path: the next flush is of the new file.
    renameSync(path, join(dir, 'old.jsonl'));
    appendFileSync(path, 'two\n');
    await flush.sync(path);
    const after = descriptorsOn(path).now;
    expect(after).toHaveLength(1);
    expect(descriptorsOn(join(dir, 'old.jsonl')).now).toEqual([]);
    expect(flush.open).toBe(1);
    expect(held).toBeDefined();

    // Deleted: the flush fails as opening it would, and holds nothing of the deleted file.
    unlinkSync(path);
    await expect(flush.sync(path)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(descriptorsOn(path).deleted).toEqual([]);
    expect(flush.open).toBe(0);
    appendFileSync(path, 'three\n');
    await flush.sync(path);
    expect(descriptorsOn(path).now).toHaveLength(1);
  });

  it('lets a descriptor go once no flush has used it for a while', async () => {
    const path = join(folder(), 'log.jsonl');
    appendFileSync(path, 'one\n');
    const flush = new KeptFileFlush(50);
    onTestFinished(() => flush.close());
    await flush.sync(path);
    expect(descriptorsOn(path).now).toHaveLength(1);
    // Used again within the while: kept.
    await sleep(30);
    await flush.sync(path);
    await sleep(30);
    expect(descriptorsOn(path).now).toHaveLength(1);
    await expect.poll(() => descriptorsOn(path).now.length, { timeout: 2000 }).toBe(0);
    expect(flush.open).toBe(0);
    // And opened again when needed.
    await flush.sync(path);
    expect(descriptorsOn(path).now).toHaveLength(1);
  });

  it("keeps the registry's write-ahead log open across group flushes and checkpoints, and lets it go at close", async () => {
    const path = join(folder(), 'registry.db');
    const registry = new StudyRegistry(path);
    const wal = `${path}-wal`;
    const held = new Set<string>();
    for (let i = 0; i < 20; i++) {
      registry.admit(DEMO, { recruitment: { PROLIFIC_PID: `pid-${i}` }, now: NOW });
      await registry.durable();
      for (const fd of descriptorsOn(wal).now) held.add(fd);
      // SQLite's checkpoint starts the log again in the same file.
      if (i === 10)
        (registry as unknown as { db: { pragma(s: string): unknown } }).db.pragma('wal_checkpoint(TRUNCATE)');
    }
    expect(registry.flushStats().flushed).toBeGreaterThanOrEqual(20);
    // SQLite's own descriptor of the log, and the one kept for the flushes: one each, the whole time.
    expect(held.size).toBe(2);
    registry.close();
    expect(descriptorsOn(wal).now).toEqual([]);
    expect(descriptorsOn(wal).deleted).toEqual([]);
  });
});
