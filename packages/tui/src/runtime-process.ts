import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { parse } from 'shell-quote';

/** How the runtime ended: its exit code, or the signal that stopped it, or why it never started. */
export interface RuntimeExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: string;
}

/**
 * The runtime as a child process (spec §2.1): its stdin and stdout carry the protocol, its stderr
 * is kept out of the screen, appended to a log file and to a short in-memory tail for `/log`.
 */
export class RuntimeProcess {
  /** The runtime's stdout, the protocol lines it writes. */
  readonly input: Readable;
  /** The runtime's stdin. */
  readonly output: Writable;
  /** Settles once the process is gone (or could not start). */
  readonly exited: Promise<RuntimeExit>;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly log: WriteStream;
  private readonly tail: string[] = [];
  private partial = '';

  constructor(
    readonly command: readonly string[],
    /** File the runtime's stderr is appended to (its folder is created when missing). */
    readonly logFile: string,
    options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
  ) {
    const [file, ...args] = command;
    if (!file) throw new Error('the runtime command is empty');
    mkdirSync(dirname(logFile), { recursive: true });
    this.log = createWriteStream(logFile, { flags: 'a' });
    this.log.on('error', () => {}); // the tail still holds the last lines
    this.child = spawn(file, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: 'pipe' });
    this.input = this.child.stdout;
    this.output = this.child.stdin;
    this.child.stdin.on('error', () => {}); // a write after exit: the client reports it
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => this.keep(chunk));
    const ended = new Promise<RuntimeExit>((resolve) => {
      this.child.on('error', (err) => resolve({ code: null, signal: null, error: err.message }));
      this.child.on('exit', (code, signal) => resolve({ code, signal }));
    });
    const logClosed = new Promise<void>((resolve) => this.log.once('close', () => resolve()));
    // The runtime has ended once its log file is complete and closed too.
    this.exited = ended.then(async (exit) => {
      if (this.partial) this.tail.push(this.partial);
      this.partial = '';
      this.log.end();
      await logClosed;
      return exit;
    });
  }

  /** The last lines the runtime wrote to stderr, oldest first. */
  stderrTail(lines = 20): string[] {
    return [...this.tail, ...(this.partial ? [this.partial] : [])].slice(-lines);
  }

  /** Closes the runtime's stdin (the protocol's end), then escalates to SIGTERM and SIGKILL if it lingers. */
  async stop(graceMs = 3000): Promise<RuntimeExit> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.stdin.end();
      if (!(await settlesWithin(this.exited, graceMs))) {
        this.child.kill('SIGTERM');
        if (!(await settlesWithin(this.exited, graceMs))) this.child.kill('SIGKILL');
      }
    }
    return this.exited;
  }

  private keep(chunk: string): void {
    this.log.write(chunk);
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop() ?? '';
    this.tail.push(...lines);
    if (this.tail.length > 200) this.tail.splice(0, this.tail.length - 200);
  }
}

/**
 * A command line (`--runtime-cmd`) as argv, split as a POSIX shell would split words and quotes,
 * with `$VAR` taken from `env`. Pipes, redirections and globs are refused: the runtime is one process.
 */
export function parseCommandLine(line: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const words = parse(line, (name) => env[name] ?? '');
  const argv: string[] = [];
  for (const word of words) {
    if (typeof word !== 'string') {
      const what = 'op' in word ? (word.op === 'glob' ? `the pattern ${word.pattern}` : `"${word.op}"`) : 'a comment';
      throw new Error(`expected one command and its arguments, without shell syntax (found ${what})`);
    }
    argv.push(word);
  }
  if (argv.length === 0) throw new Error('expected a command');
  return argv;
}

function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
