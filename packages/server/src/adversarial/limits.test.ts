import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { envelope, readLog, scriptHost, startTestServer, TestClient } from '../testing/index.ts';

/*
 * The limits of packages/relay/README.md ("Limits"), each pushed past by a client that means
 * harm: what they close is closed, said in the server's log (and the study log), and a study in
 * another room goes on undisturbed.
 */

async function studyRoom(server: { url: string; logsDir: string }, room = 'default') {
  const host = await TestClient.join(server.url, 'host', room);
  scriptHost(host);
  const agent = await TestClient.join(server.url, 'agent', room);
  const started = await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P01' });
  const logPath = join(server.logsDir, `${String(started.payload.sessionId)}.jsonl`);
  return { host, agent, logPath };
}

/** A study in another room still answers a tool call. */
async function stillServes(agent: TestClient): Promise<void> {
  const reply = await agent.request('tool.call', { toolName: 'next', params: {}, reason: 'still here?' });
  expect(reply.type).toBe('tool.result');
}

/** Writes the head of a masked text frame announcing `length` bytes, then `sent` of them, raw on the socket. */
function startHugeFrame(client: TestClient, length: number, sent: number): void {
  const head = Buffer.alloc(14);
  head[0] = 0x81; // FIN, text
  head[1] = 0x80 | 127; // masked, 64-bit length
  head.writeBigUInt64BE(BigInt(length), 2);
  randomBytes(4).copy(head, 10);
  const socket = (client.ws as unknown as { _socket: import('node:net').Socket })._socket;
  socket.write(Buffer.concat([head, Buffer.alloc(sent, 0x20)]));
}

const KiB = 1024;
const MiB = 1024 * KiB;

/** Connects as `client` (behind the test's trusted proxy on loopback) and joins `room` as an observer. */
async function observerFrom(url: string, client: string, room: string): Promise<TestClient> {
  const observer = await TestClient.connect(url, { headers: { 'X-Forwarded-For': client } });
  expect((await observer.request('relay.join', { role: 'observer', sessionId: room })).type).toBe('relay.joined');
  return observer;
}

/** A masked ping frame, raw on the socket. */
function rawPing(client: TestClient): void {
  const socket = (client.ws as unknown as { _socket: import('node:net').Socket })._socket;
  socket.write(Buffer.from([0x89, 0x80, 1, 2, 3, 4]));
}

/** An agent's snapshot.get in a room whose host answers it with `payload`: the reply the agent gets. */
async function snapshotAnsweredWith(payload: object) {
  const server = await startTestServer();
  const host = await TestClient.join(server.url, 'host');
  scriptHost(host, (frame) => {
    if (frame.type !== 'snapshot.get') return false;
    host.send(envelope('snapshot.state', payload, { replyTo: frame.id as string }));
    return true;
  });
  const agent = await TestClient.join(server.url, 'agent');
  await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P01' });
  const reply = await agent.request('snapshot.get');
  await stillServes(agent);
  return reply;
}

describe('limits', () => {
  it('closes a connection that never joins (joinTimeoutMs), saying so', async () => {
    const warnings: string[] = [];
    const server = await startTestServer({ limits: { joinTimeoutMs: 100 }, warn: (l) => warnings.push(l) });
    const lurker = await TestClient.connect(server.url);
    expect(await lurker.closed()).toBe(1008);
    expect(warnings.join('\n')).toMatch(/no relay\.join within 100 ms \(joinTimeoutMs\)/);
  });

  it('refuses connections beyond the per-address and total caps with HTTP 503', async () => {
    const warnings: string[] = [];
    const server = await startTestServer({ limits: { maxConnectionsPerAddress: 3 }, warn: (l) => warnings.push(l) });
    const held = await Promise.all([1, 2, 3].map(() => TestClient.connect(server.url)));
    expect(await TestClient.refusal(server.url)).toMatchObject({ status: 503, text: /maxConnectionsPerAddress/ });
    held[0]?.close();
    await held[0]?.closed();
    await vi.waitFor(() => expect(server.relay.load().connections).toBe(2));
    expect((await TestClient.refusal(server.url)).status).toBe(101);
    const total = await startTestServer({ limits: { maxConnections: 1 } });
    await TestClient.connect(total.url);
    expect(await TestClient.refusal(total.url)).toMatchObject({ status: 503, text: /maxConnections\)/ });
  });

  it('counts connections per client behind a trusted proxy (X-Forwarded-For), and ignores the header from anyone else', async () => {
    const as = (client: string) => ({ headers: { 'X-Forwarded-For': `203.0.113.66, ${client}` } });
    const limits = { maxConnectionsPerAddress: 2 };
    const proxied = await startTestServer({ limits, trustProxy: ['loopback'] });
    await Promise.all([
      TestClient.connect(proxied.url, as('198.51.100.1')),
      TestClient.connect(proxied.url, as('198.51.100.1')),
    ]);
    expect(await TestClient.refusal(proxied.url, as('198.51.100.1'))).toMatchObject({
      status: 503,
      text: /198\.51\.100\.1 holds/,
    });
    // Another client behind the same proxy is not held back by the first.
    expect((await TestClient.refusal(proxied.url, as('198.51.100.2'))).status).toBe(101);

    // Without --trust-proxy the header means nothing: every connection is the socket's peer's.
    const direct = await startTestServer({ limits });
    await Promise.all([
      TestClient.connect(direct.url, as('198.51.100.1')),
      TestClient.connect(direct.url, as('198.51.100.2')),
    ]);
    expect(await TestClient.refusal(direct.url, as('198.51.100.3'))).toMatchObject({
      status: 503,
      text: /127\.0\.0\.1 holds/,
    });
  });

  it('refuses a room beyond maxRooms, and closes the connection (1013)', async () => {
    const server = await startTestServer({ limits: { maxRooms: 1 } });
    await TestClient.join(server.url, 'host', 'one');
    const client = await TestClient.connect(server.url);
    const reply = await client.request('relay.join', { role: 'host', sessionId: 'two' });
    expect(reply.payload).toMatchObject({ code: 'SESSION_NOT_ACTIVE', message: expect.stringMatching(/maxRooms/) });
    expect(await client.closed()).toBe(1013);
  });

  it('closes a peer that stops reading (maxBufferedBytes, 1013), logs it, and the room goes on', async () => {
    const warnings: string[] = [];
    const server = await startTestServer({ limits: { maxBufferedBytes: 256 * 1024 }, warn: (l) => warnings.push(l) });
    const { host, agent, logPath } = await studyRoom(server);
    const sleeper = await TestClient.join(server.url, 'agent');
    (sleeper.ws as unknown as { _socket: import('node:net').Socket })._socket.pause();
    const view = {
      uiSpec: null,
      messageHistory: [{ id: 'm1', role: 'system', text: 'x'.repeat(60_000), timestamp: '2026-11-21T10:00:00.000Z' }],
      toolSchema: [],
    };
    for (let i = 0; i < 400 && server.relay.status()[0]?.agents === 2; i++) {
      host.send(envelope('state.updated', { source: 'host', ...view }));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await vi.waitFor(() => expect(warnings.join('\n')).toMatch(/closed agent-\d+ .*maxBufferedBytes/));
    await vi.waitFor(() => expect(server.relay.status()[0]?.agents).toBe(1));
    await stillServes(agent);
    const record = readLog(logPath).find((r) => r.type === 'relay.peer-closed');
    expect(record?.payload).toMatchObject({ code: 1013, reason: expect.stringMatching(/maxBufferedBytes/) });
  });

  it('drops a peer that answers no ping, however many unsolicited pongs it sends', async () => {
    const warnings: string[] = [];
    const server = await startTestServer({ heartbeatMs: 50, warn: (l) => warnings.push(l) });
    const { agent } = await studyRoom(server);
    // autoPong off: the client never answers the relay's pings, only sends pongs of its own.
    const faker = await TestClient.connect(server.url, { autoPong: false });
    await faker.request('relay.join', { role: 'observer', sessionId: 'default' });
    const spam = setInterval(() => faker.ws.pong(randomBytes(8)), 10);
    try {
      expect(await faker.closed()).toBe(1006);
    } finally {
      clearInterval(spam);
    }
    expect(warnings.join('\n')).toMatch(/did not answer the last ping/);
    await stillServes(agent);
  });

  it('once all connections hold maxBytesInProgress, stops reading from addresses holding more than a frame; another address goes on', async () => {
    const warnings: string[] = [];
    const server = await startTestServer({
      limits: { maxBytesInProgress: 1 * MiB },
      trustProxy: ['loopback'],
      warn: (l) => warnings.push(l),
    });
    const { agent } = await studyRoom(server);
    const hoarders = await Promise.all([1, 2, 3].map((i) => observerFrom(server.url, '198.51.100.1', `hoard-${i}`)));
    for (const hoarder of hoarders) startHugeFrame(hoarder, 8 * MiB, 2 * MiB);
    // Paused, not closed: none of the 6 MiB on their way is read past the total and a chunk each.
    await vi.waitFor(() => expect(server.relay.load().pausedConnections).toBe(3));
    const held = server.relay.load().bytesInProgress;
    expect(held).toBeLessThanOrEqual(1 * MiB + 3 * 64 * KiB);
    expect(warnings.join('\n')).toMatch(
      /stopped reading from observer-\d+ .*all connections hold \d+ bytes of unfinished frame data, 198\.51\.100\.1 \d+ of them \(maxBytesInProgress\)/,
    );
    // Another address's frame, up to the largest valid frame, is still read whole and answered.
    const other = await observerFrom(server.url, '198.51.100.2', 'other');
    other.send('x'.repeat(600 * KiB));
    expect((await other.waitFor((f) => f.type === 'error')).payload).toMatchObject({ code: 'INVALID_MESSAGE' });
    await stillServes(agent);
    expect(server.relay.load()).toMatchObject({ bytesInProgress: held, pausedConnections: 3 });
    expect(hoarders.map((h) => h.closeCode)).toEqual([null, null, null]);
  });

  it('counts a fragmented frame in progress even when pings come between its fragments (regression: a ping reset the count)', async () => {
    const warnings: string[] = [];
    const server = await startTestServer({
      limits: { maxBytesInProgress: 1024 * 1024 },
      warn: (l) => warnings.push(l),
    });
    const { agent } = await studyRoom(server);
    const hoarders = await Promise.all([1, 2, 3].map((i) => TestClient.join(server.url, 'observer', `hoard-${i}`)));
    for (const [i, hoarder] of hoarders.entries()) {
      const socket = (hoarder.ws as unknown as { _socket: import('node:net').Socket })._socket;
      // A first fragment (text, no FIN) announcing 512 KiB, sent whole, then a ping.
      const head = Buffer.alloc(14);
      head[0] = 0x01;
      head[1] = 0x80 | 127;
      head.writeBigUInt64BE(BigInt(512 * 1024), 2);
      socket.write(Buffer.concat([head, Buffer.alloc(512 * 1024, 0x20)]));
      rawPing(hoarder);
      if (i === 2) break;
    }
    await vi.waitFor(() => expect(warnings.join('\n')).toMatch(/unfinished frame .*maxBytesInProgress/));
    await stillServes(agent);
  });

  it('stops reading from a connection that sends more of a frame than a join needs before it has joined, until the join timeout closes it', async () => {
    const warnings: string[] = [];
    const server = await startTestServer({ limits: { joinTimeoutMs: 1000 }, warn: (l) => warnings.push(l) });
    const { agent } = await studyRoom(server);
    const stranger = await TestClient.connect(server.url);
    startHugeFrame(stranger, 15 * 1024 * 1024, 256 * 1024);
    await vi.waitFor(() => expect(server.relay.load().pausedConnections).toBe(1));
    expect(server.relay.load().bytesInProgress).toBeLessThanOrEqual(128 * 1024);
    expect(warnings.join('\n')).toMatch(
      /stopped reading from conn-\d+ .*before joining a room, more than a join needs/,
    );
    await stillServes(agent);
    expect(await stranger.closed()).toBe(1008);
    expect(warnings.join('\n')).toMatch(/no relay\.join within 1000 ms/);
    await vi.waitFor(() => expect(server.relay.load()).toMatchObject({ bytesInProgress: 0, pausedConnections: 0 }));
  });

  it('stops reading from an address that holds its share of unfinished frame bytes, and reads it again once it holds less', async () => {
    const warnings: string[] = [];
    const server = await startTestServer({
      limits: { maxBytesInProgress: 64 * MiB, maxBytesInProgressPerAddress: 1 * MiB },
      trustProxy: ['loopback'],
      warn: (l) => warnings.push(l),
    });
    const { agent } = await studyRoom(server);
    const hoarders = await Promise.all([1, 2, 3].map((i) => observerFrom(server.url, '198.51.100.1', `share-${i}`)));
    for (const hoarder of hoarders) startHugeFrame(hoarder, 8 * MiB, 2 * MiB);
    // Each is paused at its next chunk once the address holds its share: none is closed, and of the
    // 6 MiB on their way no more is read than the share and a chunk each.
    await vi.waitFor(() => expect(server.relay.load().pausedConnections).toBe(3));
    const held = server.relay.load().bytesInProgress;
    expect(held).toBeGreaterThanOrEqual(1 * MiB);
    expect(held).toBeLessThanOrEqual(1 * MiB + 3 * 64 * KiB);
    expect(warnings.join('\n')).toMatch(
      /stopped reading from observer-\d+ .*198\.51\.100\.1 holds \d+ bytes of unfinished frame data, its share \(maxBytesInProgressPerAddress\)/,
    );
    await stillServes(agent);
    expect(server.relay.load().bytesInProgress).toBe(held);
    expect(hoarders.map((h) => h.closeCode)).toEqual([null, null, null]);
  });

  it('keeps a paused connection paused when it announces a frame over the hard limit (regression: ws resumed the socket to drain it)', async () => {
    const warnings: string[] = [];
    const server = await startTestServer({
      limits: { maxBytesInProgressPerAddress: 1 * MiB },
      trustProxy: ['loopback'],
      warn: (l) => warnings.push(l),
    });
    const { agent } = await studyRoom(server);
    const hoarder = await observerFrom(server.url, '198.51.100.1', 'hoard');
    startHugeFrame(hoarder, 8 * MiB, 2 * MiB);
    await vi.waitFor(() => expect(server.relay.load().pausedConnections).toBe(1));
    // A frame over the relay's hard limit (16 MiB) is refused at its head: ws closes the
    // connection and reads on to drain it, which would read and drop all 32 MiB.
    const drainer = await observerFrom(server.url, '198.51.100.1', 'drain');
    startHugeFrame(drainer, 64 * MiB, 32 * MiB);
    await vi.waitFor(() => expect(warnings.join('\n')).toMatch(/socket error on observer-\d+: .*[Mm]ax payload/));
    await vi.waitFor(() => expect(server.relay.load().pausedConnections).toBe(2));
    // Twenty round trips later it is still paused, and most of the 32 MiB still waits on its side.
    for (let i = 0; i < 20; i++) await stillServes(agent);
    expect(server.relay.load().pausedConnections).toBe(2);
    expect(server.relay.load().bytesInProgress).toBeLessThanOrEqual(1 * MiB + 3 * 64 * KiB);
    const socket = (drainer.ws as unknown as { _socket: import('node:net').Socket })._socket;
    expect(socket.writableLength).toBeGreaterThan(16 * MiB);
  });

  it('reads a paused frame to its end once its address holds less than its share', async () => {
    const warnings: string[] = [];
    const server = await startTestServer({
      limits: { maxBytesInProgressPerAddress: 128 * KiB, joinTimeoutMs: 1500 },
      trustProxy: ['loopback'],
      warn: (l) => warnings.push(l),
    });
    const waiting = await observerFrom(server.url, '198.51.100.1', 'waiting');
    // Strangers that never join hold the address's share (each less than a join may send)...
    const strangers = await Promise.all(
      [1, 2, 3].map(() => TestClient.connect(server.url, { headers: { 'X-Forwarded-For': '198.51.100.1' } })),
    );
    for (const stranger of strangers) startHugeFrame(stranger, 1 * MiB, 60 * KiB);
    await vi.waitFor(() => expect(server.relay.load().pausedConnections).toBeGreaterThanOrEqual(1));
    const strangersPaused = server.relay.load().pausedConnections;
    // ...so a frame from the same address, within the share, waits in the middle, unanswered,
    waiting.send('x'.repeat(100 * KiB));
    await vi.waitFor(() => expect(server.relay.load().pausedConnections).toBe(strangersPaused + 1));
    expect(waiting.frames.some((f) => f.type === 'error')).toBe(false);
    // until the join timeout closes the strangers: then it is read to its end and answered.
    expect((await waiting.waitFor((f) => f.type === 'error')).payload).toMatchObject({ code: 'INVALID_MESSAGE' });
    expect(warnings.join('\n')).toMatch(/no relay\.join within 1500 ms/);
    await vi.waitFor(() => expect(server.relay.load()).toMatchObject({ bytesInProgress: 0, pausedConnections: 0 }));
  });

  it('still closes a paused connection: by the join timeout before it joins, by the heartbeat after', async () => {
    const warnings: string[] = [];
    const server = await startTestServer({
      limits: { maxBytesInProgressPerAddress: 1 * MiB, joinTimeoutMs: 1500, heartbeatMs: 2000 },
      trustProxy: ['loopback'],
      warn: (l) => warnings.push(l),
    });
    const { agent } = await studyRoom(server);
    const hoarder = await observerFrom(server.url, '198.51.100.1', 'hoard');
    startHugeFrame(hoarder, 8 * MiB, 2 * MiB);
    await vi.waitFor(() => expect(server.relay.load().pausedConnections).toBe(1));
    // A stranger from the same address, in the middle of a frame (less than a join may send): paused too.
    const stranger = await TestClient.connect(server.url, { headers: { 'X-Forwarded-For': '198.51.100.1' } });
    startHugeFrame(stranger, 32 * KiB, 16 * KiB);
    await vi.waitFor(() => expect(server.relay.load().pausedConnections).toBe(2));
    expect(await stranger.closed()).toBe(1008);
    expect(warnings.join('\n')).toMatch(/closed conn-\d+ from 198\.51\.100\.1: no relay\.join within 1500 ms/);
    // The hoarder cannot read the heartbeat's pong: the next beat closes it.
    expect(await hoarder.closed()).toBe(1006);
    expect(warnings.join('\n')).toMatch(/closed observer-\d+ from 198\.51\.100\.1: it did not answer the last ping/);
    await vi.waitFor(() => expect(server.relay.load()).toMatchObject({ bytesInProgress: 0, pausedConnections: 0 }));
    await stillServes(agent);
  }, 15_000);

  it('ends a session even when the agent that sent session.end leaves before the answer (regression: the room stayed blocked)', async () => {
    const server = await startTestServer();
    const host = await TestClient.join(server.url, 'host');
    scriptHost(host);
    const leaver = await TestClient.join(server.url, 'agent');
    await leaver.request('session.start', { studyId: 'pilot-01', participantId: 'P01' });
    leaver.send(envelope('session.end', { reason: 'done' }, { id: 'bye' }));
    leaver.close();
    await vi.waitFor(() => expect(server.relay.status()[0]?.studySession ?? null).toBeNull());
    const next = await TestClient.join(server.url, 'agent');
    expect((await next.request('session.start', { studyId: 'pilot-01', participantId: 'P02' })).type).toBe(
      'session.started',
    );
  });

  it('answers a request its host never answers with an error after requestTimeoutMs', async () => {
    const server = await startTestServer({ limits: { requestTimeoutMs: 200 } });
    const host = await TestClient.join(server.url, 'host');
    scriptHost(host, (frame) => frame.type === 'snapshot.get'); // the host swallows snapshot.get
    const agent = await TestClient.join(server.url, 'agent');
    await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P01' });
    const reply = await agent.request('snapshot.get');
    expect(reply.payload).toMatchObject({
      code: 'TOOL_EXECUTION_FAILED',
      message: expect.stringMatching(/did not answer snapshot\.get within 200 ms/),
    });
    await stillServes(agent);
  });

  it('answers with an error a request whose host replies with a frame over the cap', async () => {
    const pad = 'x'.repeat(1_200_000);
    const reply = await snapshotAnsweredWith({
      sessionId: null,
      uiSpec: null,
      messageHistory: [],
      toolSchema: [],
      pad,
    });
    expect(reply.payload).toMatchObject({
      code: 'TOOL_EXECUTION_FAILED',
      message: expect.stringMatching(/too large to forward/),
    });
  });

  it('answers with an error a request whose host replies with a frame the relay refuses (regression: it waited for its timeout)', async () => {
    const reply = await snapshotAnsweredWith({
      sessionId: null,
      uiSpec: 'not a spec',
      messageHistory: [],
      toolSchema: [],
    });
    expect(reply.payload).toMatchObject({
      code: 'TOOL_EXECUTION_FAILED',
      message: expect.stringMatching(/refused by the relay: invalid snapshot\.state: payload\.uiSpec/),
    });
  });

  it('closes a study session whose room has no host (idleSessionMs), with a record saying why, and frees the room', async () => {
    const warnings: string[] = [];
    const server = await startTestServer({ limits: { idleSessionMs: 150 }, warn: (l) => warnings.push(l) });
    const { host, agent, logPath } = await studyRoom(server, 'abandoned');
    // The page leaves; an agent waiting there does not keep the session (and its file) open.
    host.close();
    await vi.waitFor(() =>
      expect(server.relay.status()).toEqual([
        expect.objectContaining({ room: 'abandoned', agents: 1, studySession: null }),
      ]),
    );
    agent.close();
    await vi.waitFor(() => expect(server.relay.status()).toEqual([]));
    const log = readLog(logPath);
    expect(log.at(-1)).toMatchObject({
      type: 'relay.session-closed',
      payload: { reason: expect.stringMatching(/idleSessionMs/) },
    });
    expect(log.map((r) => r.eventIndex)).toEqual(log.map((_, i) => i));
    expect(warnings.join('\n')).toMatch(/closed study session s-\d{8}-\d{3}/);
  });
});
