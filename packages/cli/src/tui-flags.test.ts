import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { USHER_BIN } from './test-helpers.ts';

/** Runs `usher tui …` with pipes (not a terminal) to completion. */
function usherTui(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [USHER_BIN, 'tui', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('usher tui: command line', () => {
  it.each([
    [['--runtime-cmd', 'usher runtime --stdio | tee x'], 'without shell syntax (found "|")'],
    [['--runtime-cmd', ''], 'expected a command'],
    [['--runtime-cmd', 'my-runtime', '--url', 'ws://127.0.0.1:1'], 'cannot be used with option'],
    [['--url', 'ftp://relay'], 'expected a ws:// or wss:// URL'],
    [['--room', '../up'], 'room'],
    [['--bogus'], "unknown option '--bogus'"],
  ])('refuses %j with exit code 2', async (args, message) => {
    const result = await usherTui(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('exits 1 and says why when it is not run in a terminal', async () => {
    const result = await usherTui([]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('usher: tui needs a terminal');
  });
});
