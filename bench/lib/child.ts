import { type ChildProcess, spawn } from 'node:child_process';
import { atExit } from './cleanup.ts';

export interface ChildOptions {
  /** Shown in errors. */
  name: string;
  args: string[];
  cwd: string;
  /** Added to this process's environment for the child. */
  env?: NodeJS.ProcessEnv;
  /** Matched against stdout; its first group is the port the child listens on. */
  portPattern: RegExp;
  timeoutMs?: number;
  /** Gets what the child writes on stderr instead of it being shown (prefixed with the name). */
  stderr?: (text: string) => void;
  /** Gets what the child writes on stdout once it has reported its port, instead of it being shown. */
  stdout?: (text: string) => void;
}

/** A server started as its own Node process, so it does not share an event loop with the load. */
export interface RunningChild {
  readonly pid: number;
  readonly port: number;
  /** SIGTERM (so the relay closes its logs and a `--cpu-prof` profile gets written), SIGKILL after 10 s. */
  stop(): Promise<void>;
}

/** Starts `node <args>` and resolves once its stdout names the port it listens on. */
export function startNodeChild(options: ChildOptions): Promise<RunningChild> {
  const child = spawn(process.execPath, options.args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const forget = atExit(() => child.kill('SIGKILL'));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  exited.then(forget);
  let stdout = '';
  let ready = false;
  let stopping = false;
  const prefixed = (text: string) => text.replace(/^(?=.)/gm, `[${options.name}] `);
  // Both pipes are drained for the child's whole life: a full pipe would block its writes. What
  // the child says on stderr (a relay warning) is shown as it comes, since it may explain a failure.
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    if (options.stderr) options.stderr(text);
    else process.stderr.write(prefixed(text));
  });

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.name} did not report its port in time`));
    }, options.timeoutMs ?? 20_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const how = `${options.name} exited (${signal ?? code})`;
      if (!ready) reject(new Error(`${how} before reporting its port`));
      else if (!stopping) console.error(`${how} in the middle of the benchmark`);
    });
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      if (ready) {
        if (options.stdout) return options.stdout(text);
        // Output after the start is news (e.g. the relay saying that something else stopped it).
        if (!stopping) process.stdout.write(prefixed(text));
        return;
      }
      stdout += text;
      const match = options.portPattern.exec(stdout);
      if (!match) return;
      ready = true;
      clearTimeout(timer);
      resolve({
        pid: child.pid as number,
        port: Number(match[1]),
        stop: () => {
          stopping = true;
          return stop(child, exited);
        },
      });
    });
  });
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
