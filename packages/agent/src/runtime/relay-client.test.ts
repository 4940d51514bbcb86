import type { Socket } from 'node:net';
import { defaultScenario } from '@usher/booking';
import { createMessage } from '@usher/protocol';
import { scriptHost, startTestRelay as startTestServer, TestClient } from '@usher/relay/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import { WebSocketServer } from 'ws';
import { RelayClient, type RelayClientOptions, type RelayEvent, RelayRequestError } from './relay-client.ts';

function client(url: string, options: Partial<RelayClientOptions> = {}) {
  const events: RelayEvent[] = [];
  const relay = new RelayClient({ url, room: 'default', onEvent: (e) => events.push(e), ...options });
  onTestFinished(() => relay.close());
  return { relay, events };
}

const until = async (test: () => boolean, timeoutMs = 5000) => {
  const end = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > end) throw new Error('condition never held');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('RelayClient', () => {
  it('correlates each request with its reply, and rejects with the code of an error reply', async () => {
    const server = await startTestServer({ headlessHost: true, scenario: defaultScenario() });
    const { relay, events } = client(server.url);
    await relay.connect();
    expect(events).toEqual([{ kind: 'joined', reconnect: false }]);
    const started = await relay.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
    expect(started.payload.sessionId).toMatch(/^s-\d{8}-\d{3}$/);
    const [snapshot, refused] = await Promise.allSettled([
      relay.request('snapshot.get', {}),
      relay.request('tool.call', { toolName: 'next', params: {}, reason: 'too early' }),
    ]);
    expect(snapshot).toMatchObject({ status: 'fulfilled', value: { type: 'snapshot.state' } });
    expect(refused).toMatchObject({ status: 'rejected', reason: { code: 'UNKNOWN_TOOL', wire: true } });
    await until(() => events.some((e) => e.kind === 'message' && e.message.type === 'state.updated'));
  });

  it('times a request out with the local TIMEOUT_RESULT code', async () => {
    const server = await startTestServer();
    const host = await TestClient.join(server.url, 'host');
    scriptHost(host, (frame) => frame.type === 'snapshot.get'); // the host swallows snapshot.get
    const { relay } = client(server.url, { requestTimeoutMs: 100 });
    await relay.connect();
    await relay.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
    const err = await relay.request('snapshot.get', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RelayRequestError);
    expect(err).toMatchObject({ code: 'TIMEOUT_RESULT', wire: false });
  });

  it('fails pending requests when the relay goes away, and joins again when it is back', async () => {
    const first = await startTestServer();
    const port = first.port;
    const host = await TestClient.join(first.url, 'host');
    scriptHost(host, (frame) => frame.type === 'snapshot.get');
    const { relay, events } = client(first.url, { backoff: { initialMs: 50, maxMs: 100 } });
    await relay.connect();
    await relay.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
    const pending = relay.request('snapshot.get', {}).catch((e: unknown) => e);
    await first.close();
    expect(await pending).toMatchObject({ code: 'DISCONNECTED' });
    await until(() => events.some((e) => e.kind === 'disconnected'));

    const second = await startTestServer({ port, headlessHost: true, scenario: defaultScenario() });
    await until(() => events.some((e) => e.kind === 'joined' && e.reconnect));
    await relay.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
    expect((await relay.request('snapshot.get', {})).payload.uiSpec?.stage).toBe('movie');
    expect(second.relay.status()[0]).toMatchObject({ agents: 1 });
    expect(events.filter((e) => e.kind === 'joined')).toHaveLength(2);
  });

  it('says so when it cannot read a frame, and fails the request it answers at once (regression: dropped in silence, then a timeout)', async () => {
    // A relay that answers snapshot.get with a reply the contract does not allow.
    const wss = new WebSocketServer({ port: 0 });
    onTestFinished(() => wss.close());
    await new Promise((resolve) => wss.once('listening', resolve));
    wss.on('connection', (ws) => {
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as { id: string; type: string };
        if (frame.type === 'relay.join') {
          ws.send(
            JSON.stringify(
              createMessage('relay.joined', { role: 'agent', sessionId: 'default' }, { replyTo: frame.id }),
            ),
          );
        } else {
          ws.send(
            JSON.stringify({ v: 'mvp-0.2', type: 'snapshot.state', replyTo: frame.id, payload: { uiSpec: 'odd' } }),
          );
        }
      });
    });
    const lines: string[] = [];
    const address = wss.address() as { port: number };
    // A request timeout far beyond the test's own: only a failure at once lets this test finish.
    const { relay } = client(`ws://127.0.0.1:${address.port}`, {
      requestTimeoutMs: 600_000,
      log: (l) => lines.push(l),
    });
    await relay.connect();
    const err = await relay.request('snapshot.get', {}).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'UNREADABLE_REPLY', wire: false });
    expect(lines.join('\n')).toMatch(/could not use a frame from the relay \(uiSpec is not an object/);
  });

  it("reads another relay's frames: skips (and says once) types it has no use for, takes any session id, reports a push it cannot use", async () => {
    // The original prototype's relay: its own notices, its host's session ids, and a stage the agent does not know.
    const wss = new WebSocketServer({ port: 0 });
    onTestFinished(() => wss.close());
    await new Promise((resolve) => wss.once('listening', resolve));
    wss.on('connection', (ws) => {
      const send = (frame: object) => ws.send(JSON.stringify({ v: 'mvp-0.2', ...frame }));
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as { id: string; type: string };
        if (frame.type === 'relay.join') {
          send({ type: 'relay.joined', replyTo: frame.id, payload: { role: 'agent', sessionId: 'default', peers: 1 } });
          send({ type: 'relay.hello', payload: { server: 'prototype' } });
          send({ type: 'relay.presence', payload: { peers: 2 } });
          send({ type: 'relay.presence', payload: { peers: 3 } });
        } else {
          send({ type: 'session.started', replyTo: frame.id, payload: { sessionId: 'proto-7', startedAt: 1 } });
          send({ type: 'state.updated', payload: { source: 'host', uiSpec: { stage: 'payment' } } });
        }
      });
    });
    const lines: string[] = [];
    const address = wss.address() as { port: number };
    const { relay, events } = client(`ws://127.0.0.1:${address.port}`, { log: (l) => lines.push(l) });
    await relay.connect();
    const started = await relay.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
    expect(started.payload.sessionId).toBe('proto-7');
    await until(() => events.some((e) => e.kind === 'unreadable'));
    expect(events).toContainEqual({ kind: 'unreadable', why: 'uiSpec.stage "payment" is not a booking stage' });
    expect(lines.filter((l) => l.includes('ignoring'))).toEqual([
      'relay client: ignoring relay.hello frames (nothing the agent acts on)',
      'relay client: ignoring relay.presence frames (nothing the agent acts on)',
    ]);
    expect(lines.some((l) => l.includes('could not use a frame from the relay (uiSpec.stage "payment"'))).toBe(true);
  });

  it('says each skipped kind of frame once, and past the bound says that the rest go unsaid', async () => {
    const wss = new WebSocketServer({ port: 0 });
    onTestFinished(() => wss.close());
    await new Promise((resolve) => wss.once('listening', resolve));
    wss.on('connection', (ws) => {
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as { id: string; type: string };
        if (frame.type !== 'relay.join') return;
        ws.send(
          JSON.stringify(createMessage('relay.joined', { role: 'agent', sessionId: 'default' }, { replyTo: frame.id })),
        );
        for (let i = 0; i < 60; i++) ws.send(JSON.stringify({ v: 'mvp-0.2', type: `proto.notice-${i}`, payload: {} }));
        ws.send(JSON.stringify({ v: 'mvp-0.2', type: 'proto.notice-0', payload: {} }));
        ws.send(JSON.stringify({ v: 'mvp-0.2', type: 'proto.last', payload: {} }));
        ws.send('not JSON, always said: the end of what this relay sends');
      });
    });
    const lines: string[] = [];
    const address = wss.address() as { port: number };
    const { relay } = client(`ws://127.0.0.1:${address.port}`, { log: (l) => lines.push(l) });
    await relay.connect();
    await until(() => lines.some((l) => l.includes('the end of what this relay sends')));
    expect(lines).toHaveLength(52);
    expect(lines[0]).toBe('relay client: ignoring proto.notice-0 frames (nothing the agent acts on)');
    expect(lines[49]).toBe('relay client: ignoring proto.notice-49 frames (nothing the agent acts on)');
    expect(lines[50]).toBe('relay client: more than 50 kinds of frames read in part or skipped; the rest are not said');
  });

  it('refuses requests once closed', async () => {
    const server = await startTestServer();
    const { relay } = client(server.url);
    await relay.connect();
    relay.close();
    await expect(relay.request('snapshot.get', {})).rejects.toMatchObject({ code: 'CLOSED' });
  });

  it('drops the connection when the relay never answers the closing handshake', async () => {
    // A relay that joins the client, then never answers its close frame.
    const wss = new WebSocketServer({ port: 0 });
    onTestFinished(() => wss.close());
    await new Promise((resolve) => wss.once('listening', resolve));
    let socketClosed = false;
    wss.on('connection', (ws) => {
      ws.close = () => {};
      (ws as unknown as { _socket: Socket })._socket.once('close', () => {
        socketClosed = true;
      });
      ws.once('message', (data) => {
        const join = JSON.parse(String(data)) as { id: string };
        ws.send(
          JSON.stringify(createMessage('relay.joined', { role: 'agent', sessionId: 'default' }, { replyTo: join.id })),
        );
      });
    });
    const address = wss.address() as { port: number };
    const { relay } = client(`ws://127.0.0.1:${address.port}`);
    await relay.connect();
    relay.close();
    // The socket library alone would wait 30 s for the answer; the client gives it a moment.
    await until(() => socketClosed, 15_000);
  }, 20_000);
});
