import { Samples } from './lib/stats.ts';

export interface LoadPlan {
  /** Round trips run but not measured first, so JIT and socket buffers settle. */
  warmupMs: number;
  /** Measure for this long, or until this many round trips have been measured. */
  measure: { ms: number } | { roundTrips: number };
  /** Called as the measurement starts and ends (between two round trips). */
  onStart?(): void;
  onEnd?(): void;
  /** Called when the measured round trips reach each of these counts. */
  checkpoints?: { at: number[]; reached(roundTrips: number): void };
}

export interface LoadFigures {
  roundTrips: number;
  seconds: number;
  perSecond: number;
  p50Us: number;
  p99Us: number;
  /** Every measured round trip's latency, so runs in slices can be merged. */
  latenciesUs: Float64Array;
  /** From each measured call to the state update that follows its result (when an agent that verifies goes on). */
  settledP50Us: number;
  settledLatenciesUs: Float64Array;
}

/**
 * One closed-loop run shared by its rooms: each room keeps one tool call outstanding and reports
 * every completed round trip here. Stopping happens between two round trips of a room, so the
 * count of measured round trips is exact.
 */
export class Loop {
  /** While true, a room sends its next call as soon as the previous one is answered. */
  running = true;
  private recording = false;
  private readonly latencies = new Samples();
  private readonly settledLatencies = new Samples();
  private startedAt = 0n;
  private endedAt = 0n;
  private finish: () => void = () => {};
  /** Resolves when the measurement ends. */
  readonly ended = new Promise<void>((resolve) => {
    this.finish = resolve;
  });

  constructor(private readonly plan: LoadPlan) {}

  begin(): void {
    this.plan.onStart?.();
    this.recording = true;
    this.startedAt = process.hrtime.bigint();
    // unref: if the run fails meanwhile, this timer must not hold the process open.
    if ('ms' in this.plan.measure) setTimeout(() => this.end(), this.plan.measure.ms).unref();
  }

  completed(latencyUs: number): void {
    if (!this.recording) return;
    this.latencies.push(latencyUs);
    const n = this.latencies.length;
    if (this.plan.checkpoints?.at.includes(n)) this.plan.checkpoints.reached(n);
    if ('roundTrips' in this.plan.measure && n >= this.plan.measure.roundTrips) this.end();
  }

  /** A measured call's state update arrived, `latencyUs` after the call was sent. */
  settled(latencyUs: number): void {
    if (this.recording) this.settledLatencies.push(latencyUs);
  }

  figures(): LoadFigures {
    const seconds = Number(this.endedAt - this.startedAt) / 1e9;
    const [p50Us = Number.NaN, p99Us = Number.NaN] = this.latencies.percentiles([50, 99]);
    const roundTrips = this.latencies.length;
    const [settledP50Us = Number.NaN] = this.settledLatencies.percentiles([50]);
    return {
      roundTrips,
      seconds,
      perSecond: roundTrips / seconds,
      p50Us,
      p99Us,
      latenciesUs: this.latencies.values(),
      settledP50Us,
      settledLatenciesUs: this.settledLatencies.values(),
    };
  }

  private end(): void {
    if (!this.recording) return;
    this.endedAt = process.hrtime.bigint();
    this.recording = false;
    this.running = false;
    this.plan.onEnd?.();
    this.finish();
  }
}
