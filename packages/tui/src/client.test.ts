import { describe, expect, it, vi } from 'vitest';
import { ClientError, type IncomingUiRequest, RpcError, RuntimeClient } from './client.ts';
import type { RuntimeNotification } from './protocol.ts';
import { FakeRuntime } from './test-support/fake-runtime.ts';

function connect(onUiRequest: (r: IncomingUiRequest) => Promise<unknown> = async () => ({ ok: true })) {
  const runtime = new FakeRuntime();
  const notifications: RuntimeNotification[] = [];
  const problems: string[] = [];
  const client = new RuntimeClient({
    input: runtime.stdout,
    output: runtime.stdin,
    onNotification: (n) => notifications.push(n),
    onProblem: (p) => problems.push(p),
    onUiRequest,
  });
  return { runtime, client, notifications, problems };
}

describe('RuntimeClient', () => {
  it('says hello with the protocol version, its name and every dialog it supports', async () => {
    const { runtime, client } = connect();
    const hello = client.initialize('1.2.3');
    const sent = await runtime.initialize();
    expect(sent).toMatchObject({
      jsonrpc: '2.0',
      method: 'initialize',
      params: {
        protocol_version: '0',
        client: { name: 'usher-tui', version: '1.2.3' },
        ui_capabilities: { supports_confirm: true, supports_prompt: true, supports_pick: true },
      },
    });
    expect(typeof sent.id).toBe('string');
    await expect(hello).resolves.toMatchObject({ server: { name: 'usher-runtime' } });
  });

  it('refuses a runtime that speaks another protocol version', async () => {
    const { runtime, client } = connect();
    const hello = client.initialize('1');
    runtime.answer(await runtime.request('initialize'), { protocol_version: '7', server: { name: 'x', version: '1' } });
    await expect(hello).rejects.toThrow(/protocol version 7/);
  });

  it('matches answers to requests by id, whatever their order', async () => {
    const { runtime, client } = connect();
    const models = client.request('model.list', {});
    const skills = client.request('skills.list', {});
    const modelRequest = await runtime.request('model.list');
    const skillsRequest = await runtime.request('skills.list');
    expect(modelRequest.id).not.toBe(skillsRequest.id);
    runtime.answer(skillsRequest, { skills: [], errors: [], truncated: false });
    runtime.answer(modelRequest, { provider: 'usher', models: ['rules'], current: 'rules' });
    await expect(models).resolves.toMatchObject({ provider: 'usher', models: ['rules'] });
    await expect(skills).resolves.toMatchObject({ truncated: false });
  });

  it('rejects with the runtime’s error code', async () => {
    const { runtime, client } = connect();
    const start = client.request('run.start', { input: { type: 'text', text: 'hi' } });
    runtime.fail(await runtime.request('run.start'), -32001, 'Busy: run r1 is still active');
    const err = await start.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcError);
    expect(err).toMatchObject({ code: -32001, method: 'run.start' });
  });

  it('fails a request the runtime never answers with a timeout, and reports the late answer', async () => {
    const { runtime, client, problems } = connect();
    const list = client.request('session.list', {}, { timeoutMs: 50 });
    const request = await runtime.request('session.list');
    const err = await list.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClientError);
    expect(err).toMatchObject({ code: 'timeout' });
    runtime.answer(request, { sessions: [] });
    await vi.waitFor(() =>
      expect(problems).toEqual([`the runtime answered request ${request.id} after it had timed out`]),
    );
  });

  it('refuses an answer whose result is not the protocol', async () => {
    const { runtime, client } = connect();
    const start = client.request('run.start', { input: { type: 'text', text: 'hi' } });
    runtime.answer(await runtime.request('run.start'), { run: 'r1' });
    await expect(start).rejects.toMatchObject({ code: 'bad-answer', message: expect.stringMatching(/run_id/) });
  });

  it('checks its own params before sending', async () => {
    const { runtime, client } = connect();
    await expect(client.request('run.start', { input: { type: 'text', text: '  ' } })).rejects.toMatchObject({
      code: 'bad-params',
    });
    expect(runtime.received).toEqual([]);
  });

  it('reports bad lines and goes on with the good ones', async () => {
    const { runtime, notifications, problems } = connect();
    runtime.sendLine('{"jsonrpc":"2.0","method":"run.status","par');
    runtime.sendLine('[1,2,3]');
    runtime.sendLine('{"jsonrpc":"1.0","method":"run.status","params":{}}');
    runtime.notify('run.status', { run_id: 'r1', status: 'sleeping' });
    runtime.notify('agent.event', { run_id: 'r1', seq: 0, event: { type: 'step_start', step_id: 's' } });
    runtime.send({ jsonrpc: '2.0', id: '99', result: {} });
    runtime.notify('telemetry.tick', { n: 1 });
    runtime.notify('run.status', { run_id: 'r1', status: 'running', extra: 'kept' });
    await vi.waitFor(() => expect(notifications).toHaveLength(1));
    expect(notifications[0]).toEqual({
      method: 'run.status',
      params: { run_id: 'r1', status: 'running', extra: 'kept' },
    });
    expect(problems).toEqual([
      expect.stringMatching(/^the runtime sent a line that is not JSON: \{"jsonrpc"/),
      expect.stringMatching(/not JSON-RPC 2\.0 \(a message must be a JSON object\)/),
      expect.stringMatching(/not JSON-RPC 2\.0 \(jsonrpc: /),
      expect.stringMatching(/^the runtime sent a bad run\.status \(status: /),
      expect.stringMatching(/^the runtime sent a bad agent\.event \(event\./),
      'the runtime answered a request this UI did not send (id "99")',
    ]);
  });

  it('answers a runtime→UI request with the operator’s answer, under the same id', async () => {
    const asked: IncomingUiRequest[] = [];
    const { runtime } = connect(async (request) => {
      asked.push(request);
      return { ids: ['b'] };
    });
    runtime.ask('ui-7', 'ui.pick.request', {
      run_id: 'r1',
      title: 'Which?',
      items: [
        { id: 'a', label: 'A' },
        { id: 'b', label: 'B' },
      ],
    });
    const response = await runtime.response('ui-7');
    expect(response).toEqual({ jsonrpc: '2.0', id: 'ui-7', result: { ids: ['b'] } });
    expect(asked).toMatchObject([{ id: 'ui-7', method: 'ui.pick.request', params: { title: 'Which?' } }]);
  });

  it('answers a malformed or unknown runtime→UI request with the JSON-RPC error, without asking anyone', async () => {
    const onUiRequest = vi.fn(async () => ({ ok: true }));
    const { runtime, problems } = connect(onUiRequest);
    runtime.ask('a', 'ui.confirm.request', { title: 'No message' });
    runtime.ask('b', 'ui.dance.request', {});
    expect(await runtime.response('a')).toMatchObject({ error: { code: -32602 } });
    expect(await runtime.response('b')).toMatchObject({ error: { code: -32601 } });
    expect(onUiRequest).not.toHaveBeenCalled();
    expect(problems).toEqual([
      expect.stringMatching(/bad ui\.confirm\.request \(message: /),
      'the runtime asked for ui.dance.request, which this UI does not know',
    ]);
  });

  it('fails pending and later requests once the runtime’s output ends', async () => {
    const { runtime, client } = connect();
    const list = client.request('mcp.list', {});
    await runtime.request('mcp.list');
    runtime.stdout.end();
    await expect(list).rejects.toMatchObject({ code: 'closed' });
    await expect(client.request('mcp.list', {})).rejects.toMatchObject({ code: 'closed' });
  });
});
