import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ORBITAL_IMAX_PAIR } from '@usher/agent/testing';
import { checkBooking, defaultScenario } from '@usher/booking';
import { decodeAgentEvent, SYNC_PATH, type SyncAgentEvent } from '@usher/protocol/sync';
import { startTestServer } from '@usher/server/testing';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { eventually, recordBookings, startRuntimeProcess } from './sync-test-helpers.ts';

const work = mkdtempSync(join(tmpdir(), 'usher-sync-agent-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const TOKEN = 'test-token-1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Frame = SyncAgentEvent & { connection: number };
type AgentReady = Extract<Frame, { event_type: 'agent_ready' }>;

/**
 * The orchestrator's side played by the test over a real socket: it checks the bearer token
 * (refusing the first `refuse` attempts with 401), records every frame the agent sends (each
 * checked against the protocol's schemas), and sends raw frames.
 */
class TestOrchestrator {
  readonly frames: Frame[] = [];
  readonly invalid: string[] = [];
  attempts = 0;
  private connections = 0;
  private socket: WebSocket | null = null;
  private readonly wss = new WebSocketServer({ noServer: true });

  private constructor(
    private readonly server: Server,
    private refuse: number,
  ) {
    server.on('upgrade', (request, socket, head) => {
      this.attempts += 1;
      if (request.headers.authorization !== `Bearer ${TOKEN}` || this.refuse > 0) {
        this.refuse -= 1;
        socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
        return;
      }
      this.wss.handleUpgrade(request, socket, head, (ws) => {
        this.connections += 1;
        const connection = this.connections;
        this.socket = ws;
        ws.on('message', (data) => {
          const decoded = decodeAgentEvent(String(data));
          if (decoded.ok) this.frames.push({ ...decoded.value, connection });
          else this.invalid.push(`${decoded.reason}: ${String(data)}`);
        });
      });
    });
  }

  static async start(refuse = 0): Promise<TestOrchestrator> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const orchestrator = new TestOrchestrator(server, refuse);
    onTestFinished(() => orchestrator.close());
    return orchestrator;
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}${SYNC_PATH}`;
  }

  send(frame: unknown): void {
    this.socket?.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Drops the connection as a crash would (no close handshake). */
  drop(): void {
    this.socket?.terminate();
  }

  waitFor(match: (frame: Frame) => boolean): Promise<Frame> {
    return eventually(() => this.frames.find(match));
  }

  ended(requestId: string): Promise<Frame> {
    return this.waitFor(
      (f) =>
        (f.event_type === 'message_completed' || f.event_type === 'chat_response_error') &&
        f.data.request_id === requestId,
    );
  }

  of(requestId: string): Frame[] {
    return this.frames.filter((f) => 'data' in f && (f.data as { request_id?: string }).request_id === requestId);
  }

  close(): Promise<void> {
    for (const ws of this.wss.clients) ws.terminate();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const chat = (session: string, thread: string | null, message: string, request: string) => ({
  type: 'chat_message',
  data: { helix_session_id: session, acp_thread_id: thread, message, request_id: request },
});

/** A relay with the headless host, the test orchestrator, and `usher runtime --sync-url` between them. */
async function setup(refuse = 0) {
  const server = await startTestServer({ headlessHost: true, scenario: defaultScenario() });
  const bookings = recordBookings(server);
  const orchestrator = await TestOrchestrator.start(refuse);
  const runtime = startRuntimeProcess({
    syncUrl: orchestrator.url,
    token: TOKEN,
    relayUrl: server.url,
    episodes: join(work, 'episodes'),
  });
  const ready = (await orchestrator.waitFor((f) => f.event_type === 'agent_ready')) as AgentReady;
  return { server, bookings, orchestrator, runtime, ready };
}

/** The answer's frames for one request: context_created?, message_added…, then its end. */
function answer(frames: Frame[]) {
  const added = frames.filter((f) => f.event_type === 'message_added');
  return {
    types: frames.map((f) => f.event_type),
    added,
    contents: added.map((f) => f.data.content),
    messageIds: new Set(added.map((f) => f.data.message_id)),
    last: frames.at(-1),
  };
}

/**
 * The spec's external system, to the letter ("External System Side"): an event goes to *the
 * waiting interaction of its session*, whatever request it names. `message_added` overwrites
 * the response; `message_completed` marks the interaction complete.
 */
function bySession(frames: Frame[], interactions: Array<{ session: string; state: string; response: string }>): void {
  for (const frame of frames) {
    if (frame.event_type !== 'message_added' && frame.event_type !== 'message_completed') continue;
    const waiting = interactions.find((i) => i.session === frame.session_id && i.state === 'waiting');
    if (!waiting) continue;
    if (frame.event_type === 'message_added') waiting.response = frame.data.content;
    else waiting.state = 'complete';
  }
}

describe('usher runtime --sync-url: the agent side of external-sync', { timeout: 60_000 }, () => {
  it('creates a thread for a new session, streams a cumulative answer, completes with the request id, and books what was asked', async () => {
    const { orchestrator, bookings } = await setup();
    const before = Math.floor(Date.now() / 1000);
    orchestrator.send(chat('ses_A', null, ORBITAL_IMAX_PAIR.text, 'req_A1'));
    await orchestrator.ended('req_A1');
    const after = Math.ceil(Date.now() / 1000);

    const frames = orchestrator.of('req_A1');
    const { types, added, contents, messageIds, last } = answer(frames);
    // context_created once, first; message_added several times; message_completed last.
    expect(types[0]).toBe('context_created');
    expect(types.filter((t) => t === 'context_created')).toHaveLength(1);
    expect(types.slice(1, -1).every((t) => t === 'message_added')).toBe(true);
    expect(added.length).toBeGreaterThanOrEqual(2);
    expect(last?.event_type).toBe('message_completed');

    const created = frames[0] as Extract<Frame, { event_type: 'context_created' }>;
    const thread = created.data.acp_thread_id;
    expect(thread).toMatch(UUID);
    expect(created).toMatchObject({ session_id: 'ses_A', data: { helix_session_id: 'ses_A' } });
    // Every frame keeps the external session id and the thread id.
    for (const frame of frames) expect(frame).toMatchObject({ session_id: 'ses_A', data: { acp_thread_id: thread } });
    // Streaming: one message id, content only ever growing.
    expect(messageIds.size).toBe(1);
    for (const [i, content] of contents.entries()) expect(content.startsWith(contents[i - 1] ?? '')).toBe(true);
    for (const f of added) {
      expect(f.data.role).toBe('assistant');
      expect(f.data.timestamp).toBeGreaterThanOrEqual(before);
      expect(f.data.timestamp).toBeLessThanOrEqual(after);
    }
    expect(last).toMatchObject({ data: { request_id: 'req_A1', message_id: [...messageIds][0] } });
    expect(contents.at(-1)).toMatch(/booking is confirmed/i);

    expect(bookings).toHaveLength(1);
    const check = checkBooking(defaultScenario(), bookings[0] as never, ORBITAL_IMAX_PAIR);
    expect(check.hard.filter((h) => !h.ok)).toEqual([]);
    expect(orchestrator.invalid).toEqual([]);
  });

  it('reuses the thread for a follow-up, with the wishes said before, and never sends context_created again', async () => {
    const { orchestrator, bookings } = await setup();
    orchestrator.send(chat('ses_B', null, 'Paper Lanterns in IMAX tomorrow, two adults', 'req_B1'));
    await orchestrator.ended('req_B1');
    const first = answer(orchestrator.of('req_B1'));
    expect(first.last?.event_type).toBe('message_completed');
    expect(first.contents.at(-1)).toMatch(/IMAX/);
    expect(bookings).toHaveLength(0);
    const thread = (orchestrator.of('req_B1')[0] as Extract<Frame, { event_type: 'context_created' }>).data
      .acp_thread_id;

    // The follow-up names no film, day or party: only the thread's earlier wishes can fill them in.
    orchestrator.send(chat('ses_B', thread, 'any format', 'req_B2'));
    await orchestrator.ended('req_B2');
    const second = answer(orchestrator.of('req_B2'));
    expect(second.types.includes('context_created')).toBe(false);
    expect(orchestrator.frames.filter((f) => f.event_type === 'context_created')).toHaveLength(1);
    expect(second.last).toMatchObject({ event_type: 'message_completed', data: { acp_thread_id: thread } });
    expect(second.messageIds.size).toBe(1);
    expect([...second.messageIds][0]).not.toBe([...first.messageIds][0]);
    expect(bookings).toHaveLength(1);
    expect(bookings[0]).toMatchObject({
      movieTitle: 'Paper Lanterns',
      date: '2026-11-22',
      tickets: [{ typeId: 'adult', quantity: 2 }],
    });
  });

  it('keeps several sessions interleaved on one connection apart', async () => {
    const { orchestrator, bookings } = await setup();
    orchestrator.send(chat('ses_X', null, ORBITAL_IMAX_PAIR.text, 'req_X'));
    orchestrator.send(chat('ses_Y', null, 'Paper Lanterns in IMAX tomorrow, two adults', 'req_Y'));
    await orchestrator.ended('req_X');
    await orchestrator.ended('req_Y');
    const x = orchestrator.of('req_X');
    const y = orchestrator.of('req_Y');
    for (const f of x) expect(f).toMatchObject({ session_id: 'ses_X' });
    for (const f of y) expect(f).toMatchObject({ session_id: 'ses_Y' });
    const threadOf = (frames: Frame[]) => (frames[0] as Extract<Frame, { event_type: 'context_created' }>).data;
    expect(threadOf(x)).toMatchObject({ helix_session_id: 'ses_X' });
    expect(threadOf(y)).toMatchObject({ helix_session_id: 'ses_Y' });
    expect(threadOf(x).acp_thread_id).not.toBe(threadOf(y).acp_thread_id);
    const ax = answer(x);
    const ay = answer(y);
    expect([...ax.messageIds][0]).not.toBe([...ay.messageIds][0]);
    expect(ax.last?.event_type).toBe('message_completed');
    expect(ay.last?.event_type).toBe('message_completed');
    expect(ax.contents.at(-1)).toMatch(/Orbital Drift/);
    expect(ax.contents.at(-1)).not.toMatch(/Paper Lanterns/);
    expect(ay.contents.at(-1)).toMatch(/Paper Lanterns/);
    expect(bookings).toHaveLength(1);
    expect(checkBooking(defaultScenario(), bookings[0] as never, ORBITAL_IMAX_PAIR).satisfied).toBe(true);
  });

  it('answers bad input with an error event or a log line, and changes nothing', async () => {
    const { orchestrator, runtime, bookings } = await setup();
    orchestrator.send('this is not JSON');
    orchestrator.send({ type: 'mystery', data: {} });
    orchestrator.send([1, 2, 3]);
    orchestrator.send({
      type: 'chat_message',
      data: { helix_session_id: 'ses_C', acp_thread_id: null, message: 'hi' },
    });
    orchestrator.send({
      type: 'chat_message',
      data: { helix_session_id: 'ses_C', acp_thread_id: null, request_id: 'req_C1' },
    });
    orchestrator.send(chat('ses_C', 'no-such-thread', 'two adults tomorrow', 'req_C2'));
    orchestrator.send(chat('ses_C', null, 'Paper Lanterns in IMAX tomorrow, two adults', 'req_C3'));
    await orchestrator.ended('req_C3');

    await runtime.waitFor(/ignored a frame that is not JSON/);
    await runtime.waitFor(/ignored a frame of unknown type "mystery"/);
    await runtime.waitFor(/ignored a frame without a "type"/);
    const after = orchestrator.frames.filter((f) => f.event_type !== 'agent_ready');
    // One error for each chat_message that cannot be served, with the ids it had; nothing for the rest.
    expect(after.slice(0, 3)).toEqual([
      {
        session_id: 'ses_C',
        event_type: 'chat_response_error',
        data: { message: expect.stringMatching(/needs data\.request_id/) },
        connection: 1,
      },
      {
        session_id: 'ses_C',
        event_type: 'chat_response_error',
        data: { request_id: 'req_C1', message: expect.stringMatching(/needs data\.message/) },
        connection: 1,
      },
      {
        session_id: 'ses_C',
        event_type: 'chat_response_error',
        data: {
          request_id: 'req_C2',
          acp_thread_id: 'no-such-thread',
          message: expect.stringMatching(/unknown acp_thread_id no-such-thread/),
        },
        connection: 1,
      },
    ]);
    // The connection goes on: the valid message that followed got its thread and its answer.
    expect(answer(after.slice(3)).types[0]).toBe('context_created');
    expect(after.at(-1)).toMatchObject({ event_type: 'message_completed', data: { request_id: 'req_C3' } });
    expect(orchestrator.frames.filter((f) => f.event_type === 'context_created')).toHaveLength(1);
    expect(bookings).toEqual([]);
  });

  it('reports a refused token and retries; after a dropped connection it says agent_ready again and resends the answer', async () => {
    const { orchestrator, runtime, ready } = await setup(1);
    await runtime.waitFor(/refused the token \(HTTP 401\)/);
    expect(orchestrator.attempts).toBe(2);
    expect(ready).toMatchObject({ connection: 1, data: { requests: [] } });

    orchestrator.send(chat('ses_D', null, ORBITAL_IMAX_PAIR.text, 'req_D1'));
    await orchestrator.waitFor((f) => f.event_type === 'message_added' && f.data.request_id === 'req_D1');
    orchestrator.drop();

    // Whether the answer was still running or had ended while the socket was down, the agent
    // names the request again and delivers on the new connection what had not gone out: its
    // latest cumulative answer and its completion, once.
    const again = await orchestrator.waitFor((f) => f.event_type === 'agent_ready' && f.connection === 2);
    expect(again.data).toMatchObject({ agent_id: ready.data.agent_id, requests: ['req_D1'] });
    await orchestrator.waitFor((f) => f.connection === 2 && f.event_type === 'message_completed');
    const resent = answer(orchestrator.frames.filter((f) => f.connection === 2 && f.event_type !== 'agent_ready'));
    expect(resent.types.filter((t) => t === 'message_completed')).toHaveLength(1);
    expect(resent.last?.event_type).toBe('message_completed');
    expect(resent.contents.at(-1)).toMatch(/booking is confirmed/i);
    expect(orchestrator.invalid).toEqual([]);
  });

  it('after the orchestrator restarts, sends nothing again of a finished request, so a new one waiting in the same session gets its own answer', async () => {
    const { orchestrator } = await setup();
    orchestrator.send(chat('ses_E', null, 'Paper Lanterns in IMAX tomorrow, two adults', 'req_E1'));
    await orchestrator.ended('req_E1');
    const first = answer(orchestrator.of('req_E1'));
    const thread = (orchestrator.of('req_E1')[0] as Extract<Frame, { event_type: 'context_created' }>).data
      .acp_thread_id;

    // The orchestrator crashes and comes back; meanwhile the person wrote again in the same session.
    orchestrator.drop();
    const since = orchestrator.frames.length;
    const waiting = { session: 'ses_E', state: 'waiting', response: '' };
    const again = await orchestrator.waitFor((f) => f.event_type === 'agent_ready' && f.connection === 2);
    expect(again.data).toMatchObject({ requests: [] });
    orchestrator.send(chat('ses_E', thread, 'any format', 'req_E2'));
    await orchestrator.ended('req_E2');

    const resent = orchestrator.frames.filter((f) => f.connection === 2 && orchestrator.of('req_E1').includes(f));
    expect(resent).toEqual([]);
    bySession(orchestrator.frames.slice(since), [waiting]);
    const second = answer(orchestrator.of('req_E2'));
    expect(waiting).toEqual({ session: 'ses_E', state: 'complete', response: second.contents.at(-1) });
    expect(waiting.response).toMatch(/booking is confirmed/i);
    expect(waiting.response).not.toBe(first.contents.at(-1));
  });
});
