import { readdirSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { procCpuSeconds, procMemory } from '../lib/proc.ts';

/** The server's figures over a window: from /proc/<pid> each second, and its own loop-stats lines. */
export interface ServerFigures {
  /** CPU time per second of the window (1 = one core busy). */
  cores: number;
  rssMaxMiB: number;
  fdsMax: number;
  /** The event loop's delay: the highest p99 and max of the server's one-second reports in the window. */
  loopP99MaxMs: number;
  loopMaxMs: number;
  /** The mean of the reports' utilization. */
  loopUtilization: number;
  /** Time the server's threads waited for a core, per second of the window (/proc/<pid>/schedstat): others' work on the machine. */
  runQueueWait: number;
  /** The main thread (the relay and the HTTP API) per second of the window: on a core, waiting for one, and neither while its loop was busy (blocked in the kernel). */
  main: { cpu: number; waited: number; blocked: number };
  /** The load generator (this process): CPU and its own loop delay's p99, for judging the figures. */
  loadCores: number;
  loadLoopP99Ms: number;
}

interface LoopReport {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  utilization: number;
}

const PREFIX = 'usher-loop-stats ';
/** What the server says of its agents as a matter of course, thousands of times a step. */
const AGENT_DONE =
  /^supervisor: agent in \S+ done after \d+ tool calls$|: agent: no host in the room yet; waiting for one to join$/;

function openFds(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** Watches the server process `pid`; `stdout` takes its output (where the loop-stats lines come). */
export class ServerWatch {
  private reports: LoopReport[] | null = null;
  private samples: Array<{ rssKiB: number; fds: number }> = [];
  private timer: NodeJS.Timeout | null = null;
  private start = { at: 0, cpu: 0, load: 0, waited: 0, main: { cpu: 0, waited: 0 } };
  private pending = '';
  private readonly loadLoop = monitorEventLoopDelay({ resolution: 10 });

  constructor(private readonly pid: number) {}

  /** Feeds the server's stderr: what it says of its agents as a matter of course is left out. */
  readonly stderr = (text: string): void => {
    for (const line of text.split('\n')) {
      if (line.trim() && !AGENT_DONE.test(line)) console.error(`[usher study] ${line}`);
    }
  };

  /** Feeds the server's stdout; lines other than loop stats are shown. */
  readonly stdout = (text: string): void => {
    const lines = (this.pending + text).split('\n');
    this.pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith(PREFIX)) {
        // Each agent's end of work is expected, thousands of times; anything else is news.
        if (line.trim() && !AGENT_DONE.test(line)) console.log(`[usher study] ${line}`);
        continue;
      }
      this.reports?.push(JSON.parse(line.slice(PREFIX.length)) as LoopReport);
    }
  };

  begin(): void {
    this.reports = [];
    this.samples = [];
    this.start = {
      at: performance.now(),
      cpu: procCpuSeconds(this.pid),
      load: ownCpuSeconds(),
      waited: runQueueSeconds(this.pid),
      main: threadSeconds(this.pid, this.pid),
    };
    this.loadLoop.reset();
    this.loadLoop.enable();
    this.timer = setInterval(() => this.sample(), 1000);
    this.sample();
  }

  end(): ServerFigures {
    if (this.timer) clearInterval(this.timer);
    this.sample();
    this.loadLoop.disable();
    const seconds = (performance.now() - this.start.at) / 1000;
    const reports = this.reports ?? [];
    this.reports = null;
    const max = (values: number[]) => values.reduce((a, b) => Math.max(a, b), 0);
    return {
      cores: (procCpuSeconds(this.pid) - this.start.cpu) / seconds,
      rssMaxMiB: max(this.samples.map((s) => s.rssKiB)) / 1024,
      fdsMax: max(this.samples.map((s) => s.fds)),
      loopP99MaxMs: max(reports.map((r) => r.p99Ms)),
      loopMaxMs: max(reports.map((r) => r.maxMs)),
      loopUtilization: reports.reduce((sum, r) => sum + r.utilization, 0) / Math.max(1, reports.length),
      runQueueWait: (runQueueSeconds(this.pid) - this.start.waited) / seconds,
      main: this.mainThread(seconds, reports),
      loadCores: (ownCpuSeconds() - this.start.load) / seconds,
      loadLoopP99Ms: this.loadLoop.percentile(99) / 1e6,
    };
  }

  private mainThread(seconds: number, reports: LoopReport[]): ServerFigures['main'] {
    const now = threadSeconds(this.pid, this.pid);
    const cpu = (now.cpu - this.start.main.cpu) / seconds;
    const waited = (now.waited - this.start.main.waited) / seconds;
    const busy = reports.reduce((sum, r) => sum + r.utilization, 0) / Math.max(1, reports.length);
    return { cpu, waited, blocked: Math.max(0, busy - cpu - waited) };
  }

  private sample(): void {
    this.samples.push({ rssKiB: procMemory(this.pid).rssKiB, fds: openFds(this.pid) });
  }
}

/** Seconds one thread has run on a core and waited on a run queue (its schedstat's first two fields). */
function threadSeconds(pid: number, tid: number): { cpu: number; waited: number } {
  const [cpu = '0', waited = '0'] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ');
  return { cpu: Number(cpu) / 1e9, waited: Number(waited) / 1e9 };
}

/** Seconds the threads of `pid` have waited on a run queue (the second field of each thread's schedstat). */
function runQueueSeconds(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1]);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return ns / 1e9;
}

function ownCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}
