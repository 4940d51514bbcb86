import { PassThrough } from 'node:stream';
import type { UiCapabilities } from '@usher/protocol/stdio';
import { describe, expect, it } from 'vitest';
import { RpcPeer } from './peer.ts';
import { UiRequests } from './ui-requests.ts';

/*
 * The runtime's questions to the UI over in-memory streams: `ui.pick.request` (which the engine
 * does not ask yet), its typed answer, and the rules every question follows.
 */

function setup(capabilities: UiCapabilities, timeoutMs = 60_000) {
  const toRuntime = new PassThrough();
  const fromRuntime = new PassThrough();
  const logs: string[] = [];
  const peer = new RpcPeer({ input: toRuntime, output: fromRuntime, maxLineBytes: 1024, log: (l) => logs.push(l) });
  peer.start();
  const ui = new UiRequests(
    peer,
    () => capabilities,
    timeoutMs,
    (l) => logs.push(l),
  );
  const sent: Record<string, unknown>[] = [];
  const unread: Record<string, unknown>[] = [];
  const readers: ((message: Record<string, unknown>) => void)[] = [];
  let buffer = '';
  fromRuntime.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
      const message = JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>;
      buffer = buffer.slice(nl + 1);
      sent.push(message);
      const reader = readers.shift();
      if (reader) reader(message);
      else unread.push(message);
    }
  });
  /** The next message the runtime sent that the test has not read yet. */
  const nextSent = () =>
    new Promise<Record<string, unknown>>((resolve) => {
      const message = unread.shift();
      if (message) resolve(message);
      else readers.push(resolve);
    });
  const answer = (message: unknown) => toRuntime.write(`${JSON.stringify(message)}\n`);
  const run = (controller = new AbortController()) => ({ id: 'run-1', signal: controller.signal, controller });
  return { ui, sent, nextSent, answer, run, logs };
}

const ITEMS = [
  { id: 'a', label: '19:30 IMAX' },
  { id: 'b', label: '21:00 IMAX', detail: 'later' },
  { id: 'c', label: '22:15 IMAX' },
];

describe('ui.pick.request', () => {
  it('sends the items with the run id and returns the ids picked', async () => {
    const { ui, nextSent, answer, run } = setup({ supports_pick: true });
    const picked = ui.pick(run(), { title: 'Which showing?', items: ITEMS, multi: true });
    const request = await nextSent();
    expect(request).toEqual({
      jsonrpc: '2.0',
      id: expect.any(String),
      method: 'ui.pick.request',
      params: { run_id: 'run-1', title: 'Which showing?', items: ITEMS, multi: true },
    });
    answer({ jsonrpc: '2.0', id: request.id, result: { ids: ['c', 'a'] } });
    expect(await picked).toEqual(['c', 'a']);
  });

  it('keeps only offered ids, one unless multi', async () => {
    const { ui, nextSent, answer, run } = setup({ supports_pick: true });
    const picked = ui.pick(run(), { title: 'Which?', items: ITEMS });
    const request = await nextSent();
    answer({ jsonrpc: '2.0', id: request.id, result: { ids: ['zzz', 'b', 'c'] } });
    expect(await picked).toEqual(['b']);
  });

  it('asks nothing and picks nothing when the UI does not support pick', async () => {
    const { ui, sent, run } = setup({ supports_confirm: true });
    expect(await ui.pick(run(), { title: 'Which?', items: ITEMS })).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('picks nothing on -32003, a malformed result or response, or a timeout', async () => {
    const { ui, nextSent, answer, run, logs } = setup({ supports_pick: true }, 200);
    const dismissed = ui.pick(run(), { title: 'Which?', items: ITEMS });
    const first = await nextSent();
    answer({ jsonrpc: '2.0', id: first.id, error: { code: -32003, message: 'user cancelled' } });
    expect(await dismissed).toEqual([]);

    const malformed = ui.pick(run(), { title: 'Which?', items: ITEMS });
    const second = await nextSent();
    answer({ jsonrpc: '2.0', id: second.id, result: { ids: 'a' } });
    expect(await malformed).toEqual([]);
    expect(logs).toContainEqual(expect.stringMatching(/malformed result/));

    const badError = ui.pick(run(), { title: 'Which?', items: ITEMS });
    const third = await nextSent();
    answer({ jsonrpc: '2.0', id: third.id, error: { code: 'oops' } });
    expect(await badError).toEqual([]);
    expect(logs).toContainEqual(expect.stringMatching(/response to .* is malformed/));

    expect(await ui.pick(run(), { title: 'Which?', items: ITEMS })).toEqual([]);
    expect(logs).toContainEqual(expect.stringMatching(/no answer within 200 ms/));
  });

  it('takes an answer without "jsonrpc" as "no" at once, and never replies to it', async () => {
    const { ui, sent, nextSent, answer, run, logs } = setup({ supports_pick: true });
    const picked = ui.pick(run(), { title: 'Which?', items: ITEMS });
    const request = await nextSent();
    answer({ id: request.id, result: { ids: ['a'] } });
    // Were the first answer still awaited, this one would settle the pick with "a".
    answer({ jsonrpc: '2.0', id: request.id, result: { ids: ['a'] } });
    expect(await picked).toEqual([]);
    expect(logs).toContainEqual(expect.stringMatching(/response to .* is malformed/));
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([request]);
  });

  it('is withdrawn when its run is cancelled; the late answer is ignored', async () => {
    const { ui, nextSent, answer, run, logs } = setup({ supports_pick: true });
    const r = run();
    const picked = ui.pick(r, { title: 'Which?', items: ITEMS });
    const request = await nextSent();
    r.controller.abort();
    expect(await picked).toEqual([]);
    answer({ jsonrpc: '2.0', id: request.id, result: { ids: ['a'] } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(logs).toContainEqual(expect.stringMatching(/ignored a response/));
  });
});
