import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

/**
 * `USHER_BENCH_LOOP_STATS_MS=<ms>` (bench only, see docs/performance.md): every `<ms>`, `usher
 * serve` prints one line on stdout, `usher-loop-stats {…}`, with the event loop's delay over the
 * interval (p50, p99 and max in ms, from `perf_hooks.monitorEventLoopDelay`) and its utilization
 * (the share of the interval it was busy). A load bench reads them; nothing else does.
 */
export const LOOP_STATS_ENV = 'USHER_BENCH_LOOP_STATS_MS';
export const LOOP_STATS_PREFIX = 'usher-loop-stats ';

export interface LoopStats {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Share of the interval the loop spent working (0–1). */
  utilization: number;
}

/** The interval the environment asks for, or null when none (or not a whole number of ms from 10 to 60,000). */
export function loopStatsInterval(env: NodeJS.ProcessEnv): number | null {
  const text = env[LOOP_STATS_ENV];
  if (text === undefined || !/^\d{1,5}$/.test(text)) return null;
  const ms = Number(text);
  return ms >= 10 && ms <= 60_000 ? ms : null;
}

/** Reports the loop's delay every `intervalMs` to `report`; returns the function that stops it. */
export function startLoopStats(intervalMs: number, report: (stats: LoopStats) => void): () => void {
  // 10 ms: the histogram's sampling timer; delays shorter than that are not resolved.
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let before = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, before);
    before = now;
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    report({
      p50Ms: ms(histogram.percentile(50)),
      p99Ms: ms(histogram.percentile(99)),
      maxMs: ms(histogram.max),
      utilization: Math.round(utilization * 1000) / 1000,
    });
    histogram.reset();
  }, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    histogram.disable();
  };
}
