import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { defaultScenario } from '@usher/booking';
import type { UiSpec } from '@usher/protocol';
import { type Frame, readLog, startTestRelay, TestClient } from '@usher/relay/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import WebSocket from 'ws';
import { type HostSnapshot, HostStore, type HostStoreOptions } from './host-store.ts';

/** localStorage for Node: what a reload keeps. */
class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

const clock = () => new Date('2026-11-21T18:30:00.000Z');

function newStore(relayUrl: string, options: Partial<HostStoreOptions> = {}): HostStore {
  const store = new HostStore({
    relayUrl: relayUrl.replace(/^http/, 'ws'),
    room: 'default',
    study: 'pilot-01',
    participant: 'P07',
    scenario: defaultScenario(),
    storage: new MemoryStorage(),
    WebSocketImpl: WebSocket as unknown as typeof globalThis.WebSocket,
    now: clock,
    ...options,
  });
  onTestFinished(() => store.dispose());
  return store;
}

/** Resolves once the store's snapshot satisfies `test`. */
function until(store: HostStore, test: (s: HostSnapshot) => boolean, timeoutMs = 5000): Promise<HostSnapshot> {
  return new Promise((resolve, reject) => {
    if (test(store.getSnapshot())) return resolve(store.getSnapshot());
    const timer = setTimeout(() => reject(new Error('the store never reached the expected state')), timeoutMs);
    const stop = store.subscribe(() => {
      if (!test(store.getSnapshot())) return;
      clearTimeout(timer);
      stop();
      resolve(store.getSnapshot());
    });
  });
}

/** A TCP proxy in front of the relay whose connections the test can cut, as a network would. */
async function flakyLink(targetPort: number): Promise<{ url: string; cut(): void; restore(): void }> {
  const sockets = new Set<Socket>();
  let up = true;
  const server: Server = createServer((client) => {
    if (!up) return client.destroy();
    const relay = connect(targetPort, '127.0.0.1');
    for (const s of [client, relay]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(relay).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => {
    for (const s of sockets) s.destroy();
    server.close();
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      up = false;
      for (const s of sockets) s.destroy();
    },
    restore() {
      up = true;
    },
  };
}

describe('HostStore', () => {
  it('joins the room as its host and answers agents', async () => {
    const server = await startTestRelay();
    const store = newStore(server.url);
    store.connect();
    await until(store, (s) => s.connection === 'open');
    expect(server.relay.status()).toEqual([expect.objectContaining({ room: 'default', host: true })]);
    const agent = await TestClient.join(server.url, 'agent');
    expect((await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P07' })).type).toBe(
      'session.started',
    );
    const snapshot = await agent.request('snapshot.get');
    expect((snapshot.payload.uiSpec as UiSpec).stage).toBe('movie');
  });

  it('sends the same frames as the headless host for the same inputs', async () => {
    async function run(host: 'web' | 'headless'): Promise<Frame[]> {
      // Both servers on the same clock: the relay names sessions and logs from it.
      const server = await startTestRelay({
        now: clock,
        ...(host === 'headless' && { headlessHost: true, scenario: defaultScenario() }),
      });
      const store = host === 'web' ? newStore(server.url) : null;
      store?.connect();
      if (store) await until(store, (s) => s.connection === 'open');
      const agent = await TestClient.join(server.url, 'agent');
      await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
      const movie = ((await agent.request('snapshot.get')).payload.uiSpec as UiSpec).visibleItems[1]?.id;
      await agent.request('tool.call', {
        toolName: 'filter',
        params: { field: 'rating', operator: 'gte', value: 7 },
        reason: 'good ones',
      });
      await agent.request('tool.call', { toolName: 'select', params: { itemId: movie }, reason: 'this one' });
      await agent.request('tool.call', { toolName: 'next', params: {}, reason: 'on to theaters' });
      await agent.request('tool.call', { toolName: 'select', params: { itemId: 'nowhere' }, reason: 'a bad id' });
      agent.send({ v: 'mvp-0.2', type: 'agent.message', payload: { text: 'Which theater suits you?' } });
      if (store) store.say('The closest one, please');
      else server.headlessHost?.say('The closest one, please');
      await agent.waitFor((f) => f.type === 'user.message');
      await agent.request('session.end', { reason: 'done' });
      // Each run has its own logs folder; the log's path is the only thing allowed to differ.
      return JSON.parse(JSON.stringify(agent.frames).replaceAll(server.logsDir, '<logs>'));
    }
    const [web, headless] = [await run('web'), await run('headless')];
    expect(web.length).toBeGreaterThan(12);
    expect(web).toEqual(headless);
  });

  it('shows the agent at work while it says so (agent.status), logged by the relay, and not after it says it is idle', async () => {
    const server = await startTestRelay();
    const store = newStore(server.url);
    store.connect();
    await until(store, (s) => s.connection === 'open');
    const agent = await TestClient.join(server.url, 'agent');
    const started = await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
    agent.send({ v: 'mvp-0.2', type: 'agent.status', payload: { state: 'working' } });
    await until(store, (s) => s.agentWorking);
    agent.send({ v: 'mvp-0.2', type: 'agent.status', payload: { state: 'idle' } });
    await until(store, (s) => !s.agentWorking);
    const log = readLog(join(server.logsDir, `${String(started.payload.sessionId)}.jsonl`));
    expect(log.filter((r) => r.type === 'agent.status').map((r) => [r.direction, r.payload])).toEqual([
      ['in', { state: 'working' }],
      ['in', { state: 'idle' }],
    ]);
    // Only agents may send it.
    const observer = await TestClient.join(server.url, 'observer');
    expect((await observer.request('agent.status', { state: 'working' })).payload.code).toBe('INVALID_MESSAGE');
  });

  it('restores the stage, the choices and the chat after a reload', async () => {
    const server = await startTestRelay();
    const storage = new MemoryStorage();
    const before = newStore(server.url, { storage });
    before.connect();
    await until(before, (s) => s.connection === 'open');
    const movie = before.getSnapshot().view.uiSpec?.visibleItems[0]?.id;
    expect(before.act('select', { itemId: movie })).toBe(true);
    expect(before.act('next')).toBe(true);
    before.say('Somewhere with parking');
    before.dispose();

    const after = newStore(server.url, { storage });
    const restored = after.getSnapshot();
    expect(restored.view.uiSpec?.stage).toBe('theater');
    expect(restored.view.uiSpec?.state.booking?.movie?.id).toBe(movie);
    expect(restored.view.messageHistory.map((m) => m.text)).toEqual(['Somewhere with parking']);
    // An agent in the room hears the restored state the page announces when it joins.
    const agent = await TestClient.join(server.url, 'agent');
    after.connect();
    await until(after, (s) => s.connection === 'open');
    const announced = await agent.waitFor((f) => f.type === 'state.updated' && f.payload.source === 'host');
    expect((announced.payload.uiSpec as UiSpec).stage).toBe('theater');
  });

  it('refuses what the participant may not do, and changes nothing', async () => {
    const server = await startTestRelay();
    const store = newStore(server.url);
    store.connect();
    const before = store.getSnapshot().view;
    expect(store.act('next')).toBe(false);
    expect(store.getSnapshot().refusal).toMatchObject({ code: 'UNKNOWN_TOOL' });
    expect(store.getSnapshot().view).toEqual(before);
  });

  it('reconnects after the network drops and delivers the chat written meanwhile', async () => {
    const server = await startTestRelay();
    const link = await flakyLink(server.port);
    const store = newStore(link.url, { backoff: { initialMs: 50, maxMs: 200 } });
    store.connect();
    await until(store, (s) => s.connection === 'open');
    const agent = await TestClient.join(server.url, 'agent');

    link.cut();
    await until(store, (s) => s.connection === 'reconnecting');
    store.say('Are you still there?');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(agent.frames.some((f) => f.type === 'user.message')).toBe(false);

    link.restore();
    const message = await agent.waitFor((f) => f.type === 'user.message');
    expect(message.payload).toEqual({ text: 'Are you still there?', stage: 'movie' });
    expect(server.relay.status()[0]).toMatchObject({ host: true });
  });

  it('stays out of the way once another host replaces it', async () => {
    const server = await startTestRelay();
    const store = newStore(server.url, { backoff: { initialMs: 20, maxMs: 20 } });
    store.connect();
    await until(store, (s) => s.connection === 'open');
    const other = await TestClient.join(server.url, 'host');
    await until(store, (s) => s.connection === 'replaced');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(other.closeCode).toBeNull();
    expect(store.getSnapshot().connection).toBe('replaced');
    const before = store.getSnapshot().view;
    expect(store.act('select', { itemId: before.uiSpec?.visibleItems[0]?.id })).toBe(false);
    expect(store.getSnapshot()).toMatchObject({ view: before, refusal: { code: 'SESSION_NOT_ACTIVE' } });
  });
});
