import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readEpisodes } from '@usher/agent';
import { defaultScenario } from '@usher/booking';
import { startTestRelay } from '@usher/relay/testing';
import type { Condition } from '@usher/study';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { AgentThreads } from './agent-threads.ts';
import { AgentSupervisor } from './supervisor.ts';

/*
 * The server's shutdown (`usher serve`, `usher pilot`) awaits `stopAll` before it ends the agent
 * threads: every agent's episode log must be flushed and closed by then. The flush runs on
 * libuv's pool; here `node:fs`'s `fsync` can be made to fail as a failing disk would (in this
 * thread only: an agent thread loads its own modules).
 */
const disk = vi.hoisted(() => ({ fail: false }));
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    fsync: (fd: number, done: (err: NodeJS.ErrnoException | null) => void) =>
      real.fsync(fd, (err) =>
        done(err ?? (disk.fail ? Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }) : null)),
      ),
  };
});

const AUTOPILOT = {
  id: 'autopilot',
  agent: 'autopilot',
  planner: 'rules',
  paceMs: 0,
  guard: 'none',
  pageTools: false,
  chat: true,
  mistakes: [],
} as unknown as Condition;

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Files of `dir` this process (any of its threads) holds a descriptor open on (Linux's /proc). */
function openIn(dir: string): string[] {
  const open: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(`${dir}/`)) open.push(target);
    } catch {
      // the descriptor readdir itself used, gone by now
    }
  }
  return open;
}

async function agentAtWork(threadCount: number) {
  disk.fail = false;
  const dir = mkdtempSync(join(tmpdir(), 'usher-shutdown-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const server = await startTestRelay({ headlessHost: true, scenario: defaultScenario() });
  const host = server.headlessHost;
  if (!host) throw new Error('no headless host');
  const threads = threadCount > 0 ? new AgentThreads(threadCount, () => {}) : null;
  onTestFinished(() => threads?.close());
  const lines: string[] = [];
  const supervisor = new AgentSupervisor({
    relayUrl: server.url,
    studyId: 'pilot-01',
    episodesDir: dir,
    llm: null,
    log: (line) => lines.push(line),
    threads,
  });
  supervisor.start('default', 'P01', AUTOPILOT);
  await until(() => host.view().messageHistory.some((m) => m.text.includes('What would you like')), 'the greeting');
  const files = readdirSync(dir);
  expect(files).toHaveLength(1);
  const path = join(dir, files[0] as string);
  expect(openIn(dir)).toEqual([path]);
  return { dir, path, supervisor, lines };
}

describe('shutting the agents down', () => {
  it.each([
    ['in an agent thread', 1],
    ["in the server's thread", 0],
  ])('stopAll resolves once every episode log is flushed and closed (%s)', async (_, threadCount) => {
    const { dir, path, supervisor } = await agentAtWork(threadCount);
    await supervisor.stopAll();
    // Nothing is still open when the server goes on to end the agent threads.
    expect(openIn(dir)).toEqual([]);
    const read = readEpisodes(path);
    expect(read.problems).toEqual([]);
    expect(read.truncated).toBe(false);
    expect(read.records.length).toBeGreaterThan(0);
    expect(supervisor.isRunning('default')).toBe(false);
  });

  it("reports an episode log whose flush failed at the stop, and still closes it (in the server's thread)", async () => {
    const { dir, supervisor, lines } = await agentAtWork(0);
    disk.fail = true;
    await supervisor.stopAll();
    expect(openIn(dir)).toEqual([]);
    expect(lines).toContainEqual(
      expect.stringMatching(/agent in default failed after it was stopped: episode log \S+ could not be flushed: EIO/),
    );
  });
});
