import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { SubmittedBooking } from '@usher/booking';
import type { RunningServer } from '@usher/server';
import { onTestFinished, vi } from 'vitest';
import { USHER_BIN } from './test-helpers.ts';

/** A running `usher …` process whose output is collected. */
export interface UsherProcess {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout or stderr, now or later. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
}

/** Spawns `usher <args>`; it is killed when the test ends, if it still runs. */
export function usher(args: string[], env: NodeJS.ProcessEnv = {}): UsherProcess {
  const child = spawn(process.execPath, [USHER_BIN, ...args], { env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  const poke = () => {
    for (const waiter of [...waiters]) waiter();
  };
  child.stdout.on('data', (d) => {
    out += d;
    poke();
  });
  child.stderr.on('data', (d) => {
    err += d;
    poke();
  });
  const exited = once(child, 'close').then(([code, signal]) => (code ?? signal) as number | string);
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited;
    }
  });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(out) ?? pattern.exec(err);
          if (match) {
            waiters.delete(check);
            resolve(match);
          }
        };
        waiters.add(check);
        check();
        exited.then((code) => {
          if (waiters.delete(check))
            reject(new Error(`usher ${args[0]} exited (${code}) before printing ${pattern}:\n${err}`));
        });
      }),
  };
}

export interface OrchestratorProcess extends UsherProcess {
  url: string;
  syncUrl: string;
  port: number;
}

/** `usher orchestrator` on `port` (0: a free one), resolved once it listens. */
export async function startOrchestratorProcess(options: {
  token: string;
  data: string;
  port?: number;
  extra?: string[];
  env?: NodeJS.ProcessEnv;
}): Promise<OrchestratorProcess> {
  const proc = usher(
    [
      'orchestrator',
      '--port',
      String(options.port ?? 0),
      '--token',
      options.token,
      '--data',
      options.data,
      ...(options.extra ?? []),
    ],
    options.env,
  );
  const [, url, port] = await proc.waitFor(/listening on (http:\/\/127\.0\.0\.1:(\d+))/);
  const [, syncUrl] = await proc.waitFor(/agents connect to\s+(ws:\/\/\S+)/);
  return Object.assign(proc, { url: url as string, syncUrl: syncUrl as string, port: Number(port) });
}

/** `usher runtime --sync-url …` working on `room` through the relay at `relayUrl`. */
export function startRuntimeProcess(options: {
  syncUrl: string;
  token: string;
  relayUrl: string;
  episodes: string;
}): UsherProcess {
  return usher([
    'runtime',
    '--sync-url',
    options.syncUrl,
    '--sync-token',
    options.token,
    '--url',
    options.relayUrl,
    '--episodes',
    options.episodes,
  ]);
}

/**
 * The bookings the headless host submits. A booking ends the study session and the host then
 * resets, which clears its submitted booking, so it is read just before each reset.
 */
export function recordBookings(server: RunningServer): SubmittedBooking[] {
  const engine = server.headlessHost?.protocol.engine;
  if (!engine) throw new Error('the server has no headless host');
  const bookings: SubmittedBooking[] = [];
  const reset = engine.reset.bind(engine);
  engine.reset = () => {
    const submitted = engine.submitted();
    if (submitted) bookings.push(submitted);
    reset();
  };
  return bookings;
}

/** Waits for `check` to return a value (not undefined), for up to `seconds`. */
export function eventually<T>(check: () => T | undefined | Promise<T | undefined>, seconds = 15): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await check();
      if (value === undefined) throw new Error('not yet');
      return value;
    },
    { timeout: seconds * 1000, interval: 50 },
  );
}
