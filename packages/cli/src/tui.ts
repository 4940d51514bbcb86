import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VERSION } from '@usher/server';
import { parseCommandLine, runTui } from '@usher/tui';
import { InvalidArgumentError } from 'commander';

export interface TuiFlags {
  /** The runtime's command line; default: this `usher` with `runtime --stdio`. */
  runtimeCmd?: string[];
  /** Passed to the default runtime. */
  url?: string;
  room?: string;
  /** Where the runtime's stderr goes. */
  runtimeLog?: string;
}

/** The `usher` bin this process runs from. */
const USHER_BIN = fileURLToPath(new URL('../bin/usher.js', import.meta.url));

/** `--runtime-cmd`: one command line, split as a shell splits words (no pipes or redirections). */
export function parseRuntimeCmd(value: string): string[] {
  try {
    return parseCommandLine(value);
  } catch (err) {
    throw new InvalidArgumentError(err instanceof Error ? err.message : String(err));
  }
}

/** The runtime `usher tui` spawns: `--runtime-cmd` as given, or `usher runtime --stdio` with the relay flags. */
export function runtimeCommand(flags: TuiFlags): string[] {
  if (flags.runtimeCmd) return flags.runtimeCmd;
  return [
    process.execPath,
    USHER_BIN,
    'runtime',
    '--stdio',
    ...(flags.url ? ['--url', flags.url] : []),
    ...(flags.room ? ['--room', flags.room] : []),
  ];
}

/** `usher tui`: the operator's terminal UI, until the operator quits. */
export async function tui(flags: TuiFlags): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    process.stderr.write('usher: tui needs a terminal (stdin and stdout must be a TTY)\n');
    return 1;
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  await runTui({
    command: runtimeCommand(flags),
    logFile: flags.runtimeLog ?? join('logs', 'tui', `runtime-${stamp}.log`),
    version: VERSION,
  });
  return 0;
}
