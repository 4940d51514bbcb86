import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { RuntimeClient } from './client.ts';
import { parseCommandLine, RuntimeProcess } from './runtime-process.ts';

const work = mkdtempSync(join(tmpdir(), 'usher-tui-process-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('parseCommandLine', () => {
  it('splits words and quotes as a shell does, with $VARS from the environment', () => {
    expect(parseCommandLine(`node "my runtime.js" --room 'room one' --url $RELAY`, { RELAY: 'ws://h:1' })).toEqual([
      'node',
      'my runtime.js',
      '--room',
      'room one',
      '--url',
      'ws://h:1',
    ]);
  });

  it.each([
    ['usher runtime --stdio | tee out', '"|"'],
    ['usher runtime > out', '">"'],
    ['usher runtime && rm -rf x', '"&&"'],
    ['usher runtime *.json', 'the pattern *.json'],
  ])('refuses shell syntax: %s', (line, what) => {
    expect(() => parseCommandLine(line, {})).toThrow(`without shell syntax (found ${what})`);
  });

  it('refuses an empty command', () => {
    expect(() => parseCommandLine('   ', {})).toThrow('expected a command');
  });
});

/** A tiny runtime in Node: it answers `initialize`, writes to stderr, and exits when its stdin ends. */
const ECHO_RUNTIME = `
  const rl = require('node:readline').createInterface({ input: process.stdin });
  process.stderr.write('runtime: starting\\nruntime: ready\\n');
  rl.on('line', (line) => {
    const m = JSON.parse(line);
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {
      protocol_version: '0', server: { name: 'echo', version: '1' } } }) + '\\n');
  });
  rl.on('close', () => { process.stderr.write('runtime: bye'); process.exit(0); });
`;

describe('RuntimeProcess', () => {
  it('speaks the protocol over the child’s stdio and keeps its stderr in the log file', async () => {
    const logFile = join(work, 'logs', 'echo.log');
    const runtime = new RuntimeProcess([process.execPath, '-e', ECHO_RUNTIME], logFile);
    const problems: string[] = [];
    const client = new RuntimeClient({
      input: runtime.input,
      output: runtime.output,
      onNotification: () => {},
      onProblem: (p) => problems.push(p),
      onUiRequest: async () => ({}),
    });
    await expect(client.initialize('0')).resolves.toMatchObject({ server: { name: 'echo' } });
    await vi.waitFor(() => expect(runtime.stderrTail()).toEqual(['runtime: starting', 'runtime: ready']));
    // Closing stdin is enough for a runtime that ends with its input.
    await expect(runtime.stop()).resolves.toEqual({ code: 0, signal: null });
    expect(runtime.stderrTail(1)).toEqual(['runtime: bye']);
    await vi.waitFor(() =>
      expect(readFileSync(logFile, 'utf8')).toBe('runtime: starting\nruntime: ready\nruntime: bye'),
    );
    expect(problems).toEqual([]);
  });

  it('stops a runtime that ignores the end of its input with a signal', async () => {
    const runtime = new RuntimeProcess(
      [
        process.execPath,
        '-e',
        'process.stdin.resume(); process.stdin.on("end", () => {}); setInterval(() => {}, 1000)',
      ],
      join(work, 'stubborn.log'),
    );
    await expect(runtime.stop(200)).resolves.toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('says why a command that does not exist could not start', async () => {
    const runtime = new RuntimeProcess(['/nonexistent/usher-runtime'], join(work, 'missing.log'));
    const exit = await runtime.exited;
    expect(exit.error).toMatch(/ENOENT/);
  });
});
