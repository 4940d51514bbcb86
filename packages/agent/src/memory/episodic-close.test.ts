import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EpisodicLog } from './episodic.ts';
import { readEpisodes } from './read-episodes.ts';

/*
 * How the episode log is flushed and closed, watched at `node:fs`: the real calls are made, each
 * is noted, and a test can hold the flush back or make it fail as a failing disk would.
 */
const fsWatch = vi.hoisted(() => ({
  calls: [] as string[],
  /** When set, the next `fsync` waits until the test calls the function it is given. */
  hold: null as ((go: () => void) => void) | null,
  /** When set, `fsync` answers with this error (after the real one, so the file is still flushed). */
  fail: null as NodeJS.ErrnoException | null,
}));

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    fsync: (fd: number, done: (err: NodeJS.ErrnoException | null) => void) => {
      fsWatch.calls.push('fsync');
      const go = () => real.fsync(fd, (err) => done(err ?? fsWatch.fail));
      const hold = fsWatch.hold;
      fsWatch.hold = null;
      if (hold) hold(go);
      else go();
    },
    close: (fd: number, done: (err: NodeJS.ErrnoException | null) => void) => {
      fsWatch.calls.push('close');
      real.close(fd, done);
    },
    fsyncSync: (fd: number) => {
      fsWatch.calls.push('fsyncSync');
      real.fsyncSync(fd);
    },
    closeSync: (fd: number) => {
      fsWatch.calls.push('closeSync');
      real.closeSync(fd);
    },
  };
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'usher-episodes-close-'));
  fsWatch.calls = [];
  fsWatch.hold = null;
  fsWatch.fail = null;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Whether this process (any of its threads) holds a descriptor open on `path` (Linux's /proc). */
function isOpen(path: string): boolean {
  return readdirSync('/proc/self/fd').some((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false; // the descriptor readdir itself used, gone by now
    }
  });
}

function writeSome(log: EpisodicLog, notes: number): void {
  for (let i = 0; i < notes; i++) log.note({ text: `note ${i}` });
}

describe('EpisodicLog.close', () => {
  it('flushes off the calling thread: it returns at once, and resolves once the file is flushed, closed and whole', async () => {
    const log = new EpisodicLog({ dir, agentSessionId: 'a-close-1' });
    const path = join(dir, 'a-close-1.episodes.jsonl');
    writeSome(log, 50);
    let release: (() => void) | null = null;
    fsWatch.hold = (go) => {
      release = go;
    };
    let settled = false;
    const closing = log.close().then(() => {
      settled = true;
    });
    // No synchronous flush or close on this thread; the log refuses records from now on.
    expect(fsWatch.calls).toEqual(['fsync']);
    expect(() => log.note({ text: 'late' })).toThrow(/closed/);
    expect(log.closed).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    expect(isOpen(path)).toBe(true);
    // A second close is the same wait, not a second flush.
    const again = log.close();
    expect(fsWatch.calls).toEqual(['fsync']);

    (release as unknown as () => void)();
    await closing;
    await again;
    expect(fsWatch.calls).toEqual(['fsync', 'close']);
    expect(isOpen(path)).toBe(false);
    const read = readEpisodes(path);
    expect(read.problems).toEqual([]);
    expect(read.truncated).toBe(false);
    expect(read.records.map((r) => r.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('reports a flush that fails: the promise rejects with it, the file is closed anyway, and every close says so', async () => {
    const log = new EpisodicLog({ dir, agentSessionId: 'a-close-2' });
    const path = join(dir, 'a-close-2.episodes.jsonl');
    writeSome(log, 3);
    fsWatch.fail = Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
    await expect(log.close()).rejects.toThrow(/episode log a-close-2 could not be flushed: EIO/);
    expect(fsWatch.calls).toEqual(['fsync', 'close']);
    expect(isOpen(path)).toBe(false);
    await expect(log.close()).rejects.toThrow(/EIO/);
    expect(fsWatch.calls).toEqual(['fsync', 'close']);
    expect(() => log.note({ text: 'late' })).toThrow(/closed/);
  });

  it('has nothing to flush in memory', async () => {
    const log = new EpisodicLog({ dir: null, agentSessionId: 'a-close-3' });
    writeSome(log, 2);
    await expect(log.close()).resolves.toBeUndefined();
    expect(fsWatch.calls).toEqual([]);
    expect(() => log.note({ text: 'late' })).toThrow(/closed/);
  });
});
