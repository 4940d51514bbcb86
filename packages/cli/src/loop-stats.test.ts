import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { LOOP_STATS_PREFIX, type LoopStats, loopStatsInterval, startLoopStats } from './loop-stats.ts';
import { startServe } from './test-helpers.ts';

describe('loop stats (USHER_BENCH_LOOP_STATS_MS)', () => {
  it('reads the interval from the environment, and nothing else', () => {
    expect(loopStatsInterval({})).toBeNull();
    expect(loopStatsInterval({ USHER_BENCH_LOOP_STATS_MS: '1000' })).toBe(1000);
    for (const bad of ['', '5', '1e3', '-100', '100000', '250ms']) {
      expect(loopStatsInterval({ USHER_BENCH_LOOP_STATS_MS: bad })).toBeNull();
    }
  });

  it('reports a loop held busy as a delay of about that long, and the loop as busy', async () => {
    const reports: LoopStats[] = [];
    const stop = startLoopStats(300, (stats) => reports.push(stats));
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const until = performance.now() + 150;
      while (performance.now() < until) {
        // The loop is held: no timer of the histogram's can fire.
      }
      await new Promise((resolve) => setTimeout(resolve, 400));
    } finally {
      stop();
    }
    const first = reports[0];
    expect(first).toBeDefined();
    expect(first?.maxMs).toBeGreaterThanOrEqual(100);
    expect(first?.utilization).toBeGreaterThan(0.3);
  });
});

describe('usher serve with USHER_BENCH_LOOP_STATS_MS', () => {
  it('prints a line of loop stats on stdout every interval', async () => {
    const work = mkdtempSync(join(tmpdir(), 'usher-loop-stats-'));
    onTestFinished(() => rmSync(work, { recursive: true, force: true }));
    const { child } = await startServe(['--logs', join(work, 'logs'), '--data', join(work, 'data')], work, {
      USHER_BENCH_LOOP_STATS_MS: '100',
    });
    const line = await new Promise<string>((resolve) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const found = out.split('\n').find((l) => l.startsWith(LOOP_STATS_PREFIX));
        if (found && out.endsWith('\n')) resolve(found);
      });
    });
    const stats = JSON.parse(line.slice(LOOP_STATS_PREFIX.length)) as LoopStats;
    expect(Object.keys(stats).sort()).toEqual(['maxMs', 'p50Ms', 'p99Ms', 'utilization']);
    expect(stats.p99Ms).toBeGreaterThan(0);
  });
});
