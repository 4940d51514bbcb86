import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startTestRelay } from '@usher/relay/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type RuntimeProcess, spawnRuntime, tempDir } from './testing/runtime-process.ts';

/*
 * Conformance of `usher runtime --stdio` to the stdio protocol: the real process, spoken to in
 * NDJSON. Every test ends by checking that each stdout line was a JSON-RPC 2.0 message.
 */

let runtimes: RuntimeProcess[] = [];
function start(args: string[] = [], env?: NodeJS.ProcessEnv): RuntimeProcess {
  const runtime = spawnRuntime(args, env ? { env } : {});
  runtimes.push(runtime);
  return runtime;
}

afterEach(() => {
  for (const runtime of runtimes) expect(runtime.impure, 'stdout lines that are not JSON-RPC').toEqual([]);
  runtimes = [];
});

/** A relay with no host in the room: a run there waits for a host (up to --run-timeout) until it is cancelled. */
async function hostlessRelay(): Promise<string> {
  const server = await startTestRelay();
  return server.url.replace(/^http/, 'ws');
}

describe('the command line', () => {
  it.each([
    [['--ui-timeout', '0'], /--ui-timeout/],
    // A Node timer cannot wait longer: every question would time out at once.
    [['--ui-timeout', '2147483648'], /--ui-timeout/],
    [['--url', 'ftp://x'], /--url/],
    [['--run-timeout', '0'], /--run-timeout/],
    [['--sync-url', 'ws://127.0.0.1:9/sync'], /cannot be used with/],
  ])('refuses %j with exit code 2, writing nothing on stdout', async (args, message) => {
    const runtime = start(args);
    // Accepted flags would serve until stdin ends, then exit 0.
    runtime.child.stdin.end();
    expect(await runtime.exited).toBe(2);
    expect(runtime.lines).toEqual([]);
    expect(runtime.stderr).toMatch(message);
  });
});

describe('initialize', () => {
  it('answers with protocol version 0, the server and its capabilities, tolerating unknown fields', async () => {
    const runtime = start();
    const response = await runtime.request('initialize', {
      protocol_version: '0',
      client: { name: 'tui', version: '1.2.3', build: 'extra' },
      ui_capabilities: { supports_confirm: true, supports_holograms: true },
      future_field: { anything: 1 },
    });
    expect(response.result).toEqual({
      protocol_version: '0',
      server: { name: 'usher-runtime', version: expect.any(String) },
      server_capabilities: {
        supports_run_cancel: true,
        supports_ui_requests: true,
        supports_mcp_list: true,
        supports_skills_list: true,
      },
    });
    expect(await runtime.close()).toBe(0);
  });

  it('refuses params without protocol_version or client with -32602 saying what is missing', async () => {
    const runtime = start();
    const response = await runtime.request('initialize', { client: { name: 'tui' } });
    expect(response.error).toMatchObject({ code: -32602 });
    expect(String(response.error?.message)).toMatch(/protocol_version/);
    expect(String(response.error?.message)).toMatch(/client\.version/);
  });
});

describe('malformed input', () => {
  it('answers every malformed line with its code and goes on', async () => {
    const runtime = start();
    runtime.write('this is not json\n');
    runtime.write('{"jsonrpc":"2.0","id":"a","method":\n');
    runtime.write('[{"jsonrpc":"2.0","id":"b","method":"initialize"}]\n');
    runtime.write('42\n');
    runtime.send({ jsonrpc: '1.0', id: 'c', method: 'session.list' });
    runtime.send({ id: 'd', method: 'session.list' });
    runtime.send({ jsonrpc: '2.0', id: 'e', method: 7 });
    runtime.send({ jsonrpc: '2.0', id: { no: 1 }, method: 'session.list' });
    runtime.send({ jsonrpc: '2.0', id: 'f', method: 'session.list', params: 'limit=3' });
    runtime.send({ jsonrpc: '2.0', id: 'g' });
    runtime.send({ jsonrpc: '2.0', id: 'h', method: 'no.such.method' });
    runtime.send({ jsonrpc: '2.0', id: 'i', method: 'session.list', params: [5] });
    const after = await runtime.request('session.list', { limit: 0 });
    expect(after.result).toEqual({ sessions: [] });

    const errors = runtime.lines.filter((l) => 'error' in l).map((l) => [l.id, (l.error as { code: number }).code]);
    expect(errors).toEqual(
      expect.arrayContaining([
        [null, -32700],
        [null, -32700],
        [null, -32600],
        [null, -32600],
        ['c', -32600],
        ['d', -32600],
        ['e', -32600],
        [null, -32600],
        ['f', -32600],
        ['g', -32600],
        ['h', -32601],
        ['i', -32602],
      ]),
    );
    expect(errors).toHaveLength(12);
    const messages = runtime.lines.filter((l) => 'error' in l).map((l) => String(l.error?.message));
    expect(messages).toContainEqual(expect.stringMatching(/batches are not supported/));
    expect(messages).toContainEqual(expect.stringMatching(/"jsonrpc" must be "2.0"/));
    expect(messages).toContainEqual(expect.stringMatching(/Method not found: no\.such\.method/));
  });

  it('refuses a line nested thousands deep with -32600 before parsing it, and goes on', async () => {
    const runtime = start();
    runtime.write(
      `{"jsonrpc":"2.0","id":"deep","method":"context.set","params":{"x":${'['.repeat(50_000)}${']'.repeat(50_000)}}}\n`,
    );
    const after = await runtime.request('session.list', { limit: 0 });
    expect(after.result).toEqual({ sessions: [] });
    const refused = runtime.lines.find((l) => 'error' in l);
    expect(refused?.error).toMatchObject({ code: -32600, message: expect.stringMatching(/deeper than 64/) });
  });

  it('refuses a line longer than 1 MiB with -32600 and reads the next line', async () => {
    const runtime = start();
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 'big',
      method: 'ui.context.update',
      params: { cwd: 'x'.repeat(1024 * 1024 + 10) },
    });
    runtime.write(`${huge}\n`);
    const next = await runtime.request('ui.context.update', { cwd: '/tmp' });
    expect(next.result).toEqual({ ok: true });
    const refused = runtime.lines.filter((l) => 'error' in l);
    expect(refused).toEqual([
      expect.objectContaining({
        id: null,
        error: expect.objectContaining({ code: -32600, message: expect.stringMatching(/longer than 1048576 bytes/) }),
      }),
    ]);
  });

  it('answers an unterminated last line with -32700 at the end of input and exits cleanly', async () => {
    const runtime = start();
    const init = runtime.initialize();
    runtime.write('{"jsonrpc":"2.0","id":"last","method":"session.list"}');
    await init;
    expect(await runtime.close()).toBe(0);
    expect(runtime.lines.at(-1)).toMatchObject({ id: null, error: { code: -32700 } });
    expect(runtime.lines.filter((l) => l.id === 'last')).toEqual([]);
  });

  it('ignores blank lines and unknown notifications, and answers nothing to a notification', async () => {
    const runtime = start();
    runtime.write('\n   \r\n');
    runtime.send({ jsonrpc: '2.0', method: 'something.new', params: {} });
    runtime.send({ jsonrpc: '2.0', method: 'ui.context.update', params: { cwd: '/somewhere' } });
    const response = await runtime.request('session.list', {});
    expect(response.result).toEqual({ sessions: [] });
    expect(runtime.lines).toEqual([response]);
  });
});

describe('stdout', () => {
  it('carries no stray console output of a dependency, whichever console method prints it', async () => {
    const cwd = tempDir();
    const stray = join(cwd, 'stray.mjs');
    // A module loaded with the runtime that prints once the runtime has written its first line
    // (on the main thread: --import also runs in tsx's loader thread, whose console is not the runtime's).
    writeFileSync(
      stray,
      [
        "import { isMainThread } from 'node:worker_threads';",
        'const write = process.stdout.write;',
        'let printed = !isMainThread;',
        'process.stdout.write = function (...args) {',
        '  if (!printed) {',
        '    printed = true;',
        "    setImmediate(() => { for (const m of ['log', 'info', 'debug', 'dir', 'dirxml', 'table']) console[m]('stray ' + m); });",
        '  }',
        '  return write.apply(this, args);',
        '};',
      ].join('\n'),
    );
    const runtime = spawnRuntime([], { cwd, env: { NODE_OPTIONS: `--import ${pathToFileURL(stray).href}` } });
    runtimes.push(runtime);
    const response = await runtime.request('session.list', { limit: 0 });
    expect(response.result).toEqual({ sessions: [] });
    expect(await runtime.close()).toBe(0);
    expect(runtime.stderr).toMatch(/stray dirxml/);
  });
});

describe('ui.context.update', () => {
  it('stores the context and acknowledges it, keeping unknown fields', async () => {
    const runtime = start();
    const response = await runtime.request('ui.context.update', {
      cwd: '/work',
      active_file: { path: 'a.ts', language_id: 'typescript' },
      selection: { path: 'a.ts', range: { start: { line: 0, column: 0 }, end: { line: 1, column: 2 } } },
      extensions: { editor: 'x' },
      brand_new: true,
    });
    expect(response.result).toEqual({ ok: true });
    const bad = await runtime.request('ui.context.update', {
      selection: { path: 'a.ts', range: { start: { line: -1 } } },
    });
    expect(bad.error).toMatchObject({ code: -32602 });
    expect(String(bad.error?.message)).toMatch(/selection\.range/);
  });
});

describe('runs', () => {
  it('refuses run.start without text with -32602 and a run of an unknown session with -32602', async () => {
    const runtime = start();
    const empty = await runtime.request('run.start', { input: { type: 'text', text: '   ' } });
    expect(empty.error).toMatchObject({ code: -32602, message: expect.stringMatching(/input\.text/) });
    const kind = await runtime.request('run.start', { input: { type: 'image', text: 'x' } });
    expect(kind.error).toMatchObject({ code: -32602, message: expect.stringMatching(/input\.type/) });
    const unknown = await runtime.request('run.start', { input: { type: 'text', text: 'hi' }, session_id: 'nope' });
    expect(unknown.error).toMatchObject({ code: -32602, message: expect.stringMatching(/no session "nope"/) });
    const traversal = await runtime.request('run.start', {
      input: { type: 'text', text: 'hi' },
      session_id: '../../etc/passwd',
    });
    expect(traversal.error).toMatchObject({ code: -32602, message: expect.stringMatching(/session_id/) });
    expect(runtime.lines.filter((l) => l.method === 'run.status')).toEqual([]);
  });

  it('reports a run that cannot reach the relay as one terminal error status', async () => {
    const runtime = start(['--url', 'ws://127.0.0.1:9']);
    await runtime.initialize();
    const started = await runtime.request('run.start', { input: { type: 'text', text: 'two tickets' } });
    const runId = String(started.result?.run_id);
    expect(started.result).toEqual({ run_id: expect.any(String), session_id: expect.any(String) });
    const end = await runtime.runEnd(runId);
    expect(end.params).toMatchObject({ status: 'error', message: expect.stringMatching(/cannot reach the host/) });
    const statuses = runtime.notificationsOf(runId).filter((l) => l.method === 'run.status');
    expect(statuses.map((l) => l.params?.status)).toEqual(['running', 'error']);
    // The run's result comes before any of its notifications.
    const resultAt = runtime.lines.indexOf(started);
    expect(runtime.lines.findIndex((l) => l.params?.run_id === runId)).toBeGreaterThan(resultAt);
  });

  it('is busy (-32001) while a run is active, cancels it once (-32002 for unknown runs), then accepts a new run', async () => {
    const runtime = start(['--url', await hostlessRelay()]);
    await runtime.initialize();
    const first = await runtime.request('run.start', { input: { type: 'text', text: 'two adults tomorrow' } });
    const runId = String(first.result?.run_id);
    await runtime.waitFor((l) => l.method === 'run.status' && l.params?.run_id === runId);

    const busy = await runtime.request('run.start', { input: { type: 'text', text: 'another' } });
    expect(busy.error).toMatchObject({ code: -32001, data: { run_id: runId } });

    // mcp.list, skills.list and session.list are served while the run is active.
    expect((await runtime.request('mcp.list', {})).result).toEqual({ servers: [] });
    expect((await runtime.request('session.list', {})).result?.sessions).toHaveLength(1);

    const missing = await runtime.request('run.cancel', { run_id: 'run-unknown' });
    expect(missing.error).toMatchObject({ code: -32002 });
    const noId = await runtime.request('run.cancel', {});
    expect(noId.error).toMatchObject({ code: -32602, message: expect.stringMatching(/run_id/) });

    const cancel = await runtime.request('run.cancel', { run_id: runId, reason: 'changed my mind' });
    expect(cancel.result).toEqual({ ok: true, status: 'cancelled' });
    const again = await runtime.request('run.cancel', { run_id: runId });
    expect(again.result).toEqual({ ok: false, status: 'cancelled' });

    const second = await runtime.request('run.start', {
      input: { type: 'text', text: 'two adults tomorrow' },
      session_id: first.result?.session_id,
    });
    expect(second.result).toMatchObject({ session_id: first.result?.session_id });
    const secondId = String(second.result?.run_id);
    await runtime.request('run.cancel', { run_id: secondId });
    expect(await runtime.close()).toBe(0);

    const statuses = runtime.notificationsOf(runId).filter((l) => l.method === 'run.status');
    expect(statuses.map((l) => l.params?.status)).toEqual(['running', 'cancelled']);
    expect(statuses[1]?.params?.message).toMatch(/changed my mind/);
    expect(
      runtime
        .notificationsOf(secondId)
        .filter((l) => l.method === 'run.status')
        .map((l) => l.params?.status),
    ).toEqual(['running', 'cancelled']);
  });

  it('cancels the active run when stdin closes, and exits with 0', async () => {
    const runtime = start(['--url', await hostlessRelay()]);
    await runtime.initialize();
    const started = await runtime.request('run.start', { input: { type: 'text', text: 'two adults tomorrow' } });
    const runId = String(started.result?.run_id);
    await runtime.waitFor((l) => l.method === 'run.status' && l.params?.run_id === runId);
    expect(await runtime.close()).toBe(0);
    expect(runtime.lines.at(-1)).toMatchObject({
      method: 'run.status',
      params: { run_id: runId, status: 'cancelled' },
    });
  });
});

describe('model.list and model.set', () => {
  it('offers the deterministic planner, current at start, and no OpenAI models when none is configured', async () => {
    const runtime = start();
    expect((await runtime.request('model.list')).result).toEqual({
      provider: 'usher',
      models: ['rules'],
      current: 'rules',
    });
    expect((await runtime.request('model.list', { provider: 'openai' })).result).toEqual({
      provider: 'openai',
      models: [],
    });
    const unknownProvider = await runtime.request('model.list', { provider: 'acme' });
    expect(unknownProvider.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/unknown provider "acme"/),
    });
    const unknown = await runtime.request('model.set', { name: 'gpt-9', provider: 'openai' });
    expect(unknown.error).toMatchObject({ code: -32602 });
    const unknownRules = await runtime.request('model.set', { name: 'fancy', provider: 'usher' });
    expect(unknownRules.error).toMatchObject({ code: -32602 });
    expect((await runtime.request('model.list')).result).toMatchObject({ provider: 'usher', current: 'rules' });
    expect((await runtime.request('model.set', { name: 'rules' })).result).toEqual({
      provider: 'usher',
      name: 'rules',
    });
  });
});
