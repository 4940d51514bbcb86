import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCorpus } from '@usher/protocol/node';
import { describe, expect, it } from 'vitest';
import { envelope, readLog, scriptHost, startTestServer, TestClient } from '../testing/index.ts';

async function roomWithSession() {
  const server = await startTestServer();
  const host = await TestClient.join(server.url, 'host');
  scriptHost(host);
  const agent = await TestClient.join(server.url, 'agent');
  const started = await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
  expect(started.type).toBe('session.started');
  const sessionId = String(started.payload.sessionId);
  return { server, host, agent, sessionId, logPath: join(server.logsDir, `${sessionId}.jsonl`) };
}

/** Opens a study session in a room whose host is played by hand (it answers session.start here, and nothing else). */
async function openSession(agent: TestClient, host: TestClient): Promise<void> {
  const reply = agent.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
  const start = await host.waitFor((f) => f.type === 'session.start');
  host.send(envelope('session.started', { sessionId: start.payload.sessionId }, { replyTo: start.id as string }));
  expect((await reply).type).toBe('session.started');
}

describe('relay: bad frames', () => {
  const { rejected } = loadCorpus();

  it.each(rejected.map((f) => [f.name, f] as const))(
    'answers %s with its code, and the connection, session and log go on',
    async (_name, fixture) => {
      const { agent, logPath } = await roomWithSession();
      agent.send(fixture.frame);
      const error = await agent.nextMatching((f) => f.type === 'error');
      expect(error.payload.code).toBe(fixture.expect.code);
      expect(error.replyTo).toBe(fixture.expect.replyTo);

      const result = await agent.request('tool.call', { toolName: 'next', params: {}, reason: 'still connected?' });
      expect(result.type).toBe('tool.result');
      const log = readLog(logPath);
      expect(log.map((r) => r.eventIndex)).toEqual(log.map((_, i) => i));
      expect(log.find((r) => r.type === 'error')?.payload).toMatchObject({ code: fixture.expect.code });
    },
  );

  it('refuses an oversized frame with INVALID_MESSAGE and keeps the connection', async () => {
    const { agent } = await roomWithSession();
    agent.send(envelope('agent.message', { text: 'x'.repeat(1024 * 1024) }, { id: 'big' }));
    const error = await agent.waitFor((f) => f.type === 'error');
    expect(error.payload).toMatchObject({ code: 'INVALID_MESSAGE', message: expect.stringContaining('limit') });
    expect((await agent.request('snapshot.get')).type).toBe('snapshot.state');
  });

  it('refuses binary frames', async () => {
    const { agent } = await roomWithSession();
    agent.ws.send(Buffer.from('{}'), { binary: true });
    const error = await agent.waitFor((f) => f.type === 'error');
    expect(error.payload.code).toBe('INVALID_MESSAGE');
  });

  it('refuses a type the role may not send', async () => {
    const { agent, host } = await roomWithSession();
    const asAgent = await agent.request('state.updated', {
      source: 'agent',
      uiSpec: null,
      messageHistory: [],
      toolSchema: [],
    });
    expect(asAgent.payload).toMatchObject({ code: 'INVALID_MESSAGE', message: 'an agent may not send state.updated' });
    const asHost = await host.request('tool.call', { toolName: 'next', params: {}, reason: 'hosts do not call tools' });
    expect(asHost.payload.code).toBe('INVALID_MESSAGE');
    const observer = await TestClient.join(host.ws.url.replace('/agent/ws', ''), 'observer');
    const asObserver = await observer.request('tool.call', {
      toolName: 'next',
      params: {},
      reason: 'observers only watch',
    });
    expect(asObserver.payload.code).toBe('INVALID_MESSAGE');
  });

  it('forwards and logs a host frame without the top-level fields the contract does not know, and says so once per room', async () => {
    const warnings: string[] = [];
    const server = await startTestServer({ warn: (line) => warnings.push(line) });
    const host = await TestClient.join(server.url, 'host');
    scriptHost(host);
    const agent = await TestClient.join(server.url, 'agent');
    const started = await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
    const logPath = join(server.logsDir, `${String(started.payload.sessionId)}.jsonl`);
    const view = { uiSpec: { stage: 'movie' }, messageHistory: [], toolSchema: [] };
    // A host's own extension (the research prototype's newest frames) and backend data by mistake.
    const extras = { plannerCpMemoryLimit: 4096, guiAdaptationEnabled: true, backendData: { price: 'secret' } };
    host.send(envelope('state.updated', { source: 'host', ...view, ...extras }));
    host.send(envelope('state.updated', { source: 'host', ...view, ...extras, stageMeta: { movie: 'x' } }));
    const seen = () => agent.frames.filter((f) => f.type === 'state.updated' && f.payload.source === 'host');
    await agent.waitFor(() => seen().length >= 2);
    expect(host.frames.filter((f) => f.type === 'error')).toEqual([]);
    for (const frame of seen())
      expect(Object.keys(frame.payload).sort()).toEqual(Object.keys({ source: 1, ...view }).sort());
    expect(JSON.stringify(agent.frames)).not.toContain('secret');
    expect(readFileSync(logPath, 'utf8')).not.toMatch(/secret|plannerCpMemoryLimit|stageMeta/);
    // Said once per room and key: the first frame names three keys, the second only the new one.
    const said = warnings.filter((w) => w.includes('dropped'));
    expect(said).toHaveLength(2);
    expect(said[0]).toMatch(/"plannerCpMemoryLimit", "guiAdaptationEnabled", "backendData"/);
    expect(said[1]).toMatch(/"stageMeta"/);
    expect(said[1]).not.toMatch(/backendData/);
  });

  it('refuses a host reply that answers nothing, or answers with the wrong type', async () => {
    const server = await startTestServer();
    const host = await TestClient.join(server.url, 'host');
    host.send(envelope('tool.result', { ok: true, toolName: 'next' }, { replyTo: 'nobody' }));
    expect((await host.waitFor((f) => f.type === 'error')).payload.message).toContain('answers no pending request');

    const agent = await TestClient.join(server.url, 'agent');
    await openSession(agent, host);
    const reply = agent.request('snapshot.get');
    const request = await host.waitFor((f) => f.type === 'snapshot.get');
    host.send(envelope('tool.result', { ok: true, toolName: 'x' }, { replyTo: request.id as string }));
    await host.nextMatching((f) => f.type === 'error');
    // The refused reply still ends the request: its requester hears why at once, not after a timeout.
    expect((await reply).payload).toMatchObject({
      code: 'TOOL_EXECUTION_FAILED',
      message: expect.stringMatching(
        /refused by the relay: snapshot\.get is answered with snapshot\.state or error, not tool\.result/,
      ),
    });
    host.send(
      envelope(
        'snapshot.state',
        { sessionId: null, uiSpec: null, messageHistory: [], toolSchema: [] },
        { replyTo: request.id as string },
      ),
    );
    expect((await host.nextMatching((f) => f.type === 'error')).payload.message).toContain(
      'answers no pending request',
    );
  });
});

describe('relay: SESSION_NOT_ACTIVE', () => {
  it('before joining a room', async () => {
    const server = await startTestServer();
    const client = await TestClient.connect(server.url);
    const reply = await client.request('snapshot.get');
    expect(reply.payload).toMatchObject({ code: 'SESSION_NOT_ACTIVE' });
  });

  it('for study messages before session.start and after session.end', async () => {
    const server = await startTestServer();
    const host = await TestClient.join(server.url, 'host');
    scriptHost(host);
    const agent = await TestClient.join(server.url, 'agent');
    const call = { toolName: 'next', params: {}, reason: 'move on' };
    expect((await agent.request('tool.call', call)).payload.code).toBe('SESSION_NOT_ACTIVE');
    expect((await agent.request('agent.message', { text: 'hello' })).payload.code).toBe('SESSION_NOT_ACTIVE');
    expect((await agent.request('session.end', {})).payload.code).toBe('SESSION_NOT_ACTIVE');
    expect((await agent.request('snapshot.get')).payload.code).toBe('SESSION_NOT_ACTIVE');

    await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
    expect((await agent.request('snapshot.get')).type).toBe('snapshot.state');
    expect((await agent.request('tool.call', call)).type).toBe('tool.result');
    expect((await agent.request('session.end', {})).type).toBe('session.ended');
    expect((await agent.request('tool.call', call)).payload.code).toBe('SESSION_NOT_ACTIVE');
    expect((await agent.request('snapshot.get')).payload).toMatchObject({
      code: 'SESSION_NOT_ACTIVE',
      message: 'no study session is active; send session.start first',
    });
  });

  it('when the room has no host', async () => {
    const server = await startTestServer();
    const agent = await TestClient.join(server.url, 'agent');
    const reply = await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
    expect(reply.payload).toMatchObject({ code: 'SESSION_NOT_ACTIVE', message: 'no host in room "default"' });
  });
});

describe('relay: routing', () => {
  it('routes each reply to its own requester, even when two agents use the same id', async () => {
    const { server, agent } = await roomWithSession();
    const other = await TestClient.join(server.url, 'agent');
    const [a, b] = await Promise.all([
      agent.request('tool.call', { toolName: 'select', params: { itemId: 'a' }, reason: 'first agent' }, 'same'),
      other.request('tool.call', { toolName: 'prev', params: {}, reason: 'second agent' }, 'same'),
    ]);
    expect(a.payload.toolName).toBe('select');
    expect(b.payload.toolName).toBe('prev');
    expect(agent.frames.filter((f) => f.replyTo === 'same')).toHaveLength(1);
  });

  it('broadcasts state.updated to every agent and observer, not back to the host', async () => {
    const { server, agent, host } = await roomWithSession();
    const observer = await TestClient.join(server.url, 'observer');
    await agent.request('tool.call', { toolName: 'next', params: {}, reason: 'move on' });
    await observer.waitFor((f) => f.type === 'state.updated');
    await agent.waitFor((f) => f.type === 'state.updated');
    expect(host.frames.some((f) => f.type === 'state.updated')).toBe(false);
  });

  it('replaces a host with a new one, tells the agents, and answers what the old host left pending', async () => {
    const server = await startTestServer();
    const first = await TestClient.join(server.url, 'host');
    const agent = await TestClient.join(server.url, 'agent');
    await openSession(agent, first);
    const pending = agent.request('snapshot.get');
    await first.waitFor((f) => f.type === 'snapshot.get');

    const second = await TestClient.join(server.url, 'host');
    scriptHost(second);
    expect((await pending).payload).toMatchObject({ code: 'SESSION_NOT_ACTIVE' });
    const notice = await agent.waitFor((f) => f.type === 'relay.joined' && f.replyTo === undefined);
    expect(notice.payload).toMatchObject({ role: 'host', replaced: true });
    expect(await first.closed()).toBe(4001);
    expect((await agent.request('snapshot.get')).type).toBe('snapshot.state');
  });

  it('answers pending requests when the host leaves, and tells the agents', async () => {
    const server = await startTestServer();
    const host = await TestClient.join(server.url, 'host');
    const agent = await TestClient.join(server.url, 'agent');
    await openSession(agent, host);
    const pending = agent.request('snapshot.get');
    await host.waitFor((f) => f.type === 'snapshot.get');
    host.close();
    expect((await pending).payload).toMatchObject({
      code: 'SESSION_NOT_ACTIVE',
      message: 'the host left before answering',
    });
    const notice = await agent.waitFor((f) => f.type === 'error' && f.replyTo === undefined);
    expect(notice.payload.message).toContain('the host left');
  });

  it('drops a peer that stops answering pings', async () => {
    const server = await startTestServer({ heartbeatMs: 50 });
    const silent = await TestClient.connect(server.url, { autoPong: false });
    expect(await silent.closed()).toBe(1006);
  });
});

describe('relay: study log', () => {
  it('writes each frame before forwarding it', async () => {
    const server = await startTestServer();
    const host = await TestClient.join(server.url, 'host');
    const seenByHost: string[] = [];
    scriptHost(host, (frame) => {
      if (frame.type === 'tool.call') {
        const file = readdirSync(server.logsDir).find((f) => f.endsWith('.jsonl')) as string;
        const lines = readFileSync(join(server.logsDir, file), 'utf8').trim().split('\n');
        seenByHost.push(JSON.parse(lines.at(-1) as string).type);
      }
      return false;
    });
    const agent = await TestClient.join(server.url, 'agent');
    await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
    await agent.request('tool.call', { toolName: 'next', params: {}, reason: 'move on' });
    expect(seenByHost).toEqual(['tool.call']);
  });

  it('forwards a host’s state.updated as sent and logs its payload on one line, whatever its characters', async () => {
    const { server, host, agent, logPath } = await roomWithSession();
    const payloads = [
      {
        source: 'host',
        uiSpec: { title: 'Plain ASCII', n: [1, -2.5e3, true, null] },
        messageHistory: [],
        toolSchema: [],
      },
      {
        source: 'host',
        uiSpec: { title: 'Café “Lumière” 🎬', quote: 'a "b" \\ c\nd' },
        messageHistory: [],
        toolSchema: [],
      },
    ];
    for (const payload of payloads) {
      for (const text of [
        JSON.stringify(envelope('state.updated', payload)),
        JSON.stringify(envelope('state.updated', payload), null, 2),
      ]) {
        host.send(text);
        const got = await agent.nextMatching((f) => f.type === 'state.updated');
        expect(got.payload).toEqual(payload);
      }
    }
    await server.close();
    const logged = readFileSync(logPath, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const states = logged.filter((r) => r.type === 'state.updated').map((r) => r.payload);
    expect(states).toEqual([payloads[0], payloads[0], payloads[1], payloads[1]]);
  });

  it('sends session.ended only once the log is complete, with gapless indices and every field', async () => {
    const { agent, logPath, sessionId } = await roomWithSession();
    await agent.request('tool.call', { toolName: 'select', params: { itemId: 'm1' }, reason: 'Pick m1' }, 'req-3');
    agent.send(envelope('agent.message', { text: 'Choosing a theater next.' }));
    const ended = await agent.request('session.end', { reason: 'study-complete' });
    const atReceipt = readFileSync(logPath, 'utf8');
    expect(ended.payload).toEqual({
      sessionId,
      logFile: expect.stringMatching(new RegExp(`${sessionId}\\.jsonl$`)),
      stateReset: true,
    });

    const log = readLog(logPath);
    expect(atReceipt.endsWith('\n')).toBe(true);
    expect(log.at(-1)).toMatchObject({ type: 'session.ended', direction: 'out' });
    expect(log.map((r) => r.eventIndex)).toEqual(log.map((_, i) => i));
    for (const record of log) {
      expect(record.sessionId).toBe(sessionId);
      expect(record.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(['in', 'out', 'internal']).toContain(record.direction);
    }
    const call = log.find((r) => r.type === 'tool.call');
    expect(call).toMatchObject({ direction: 'in', id: 'req-3', payload: { toolName: 'select', reason: 'Pick m1' } });
    expect(log.find((r) => r.type === 'tool.result')).toMatchObject({ direction: 'out', replyTo: 'req-3' });
    expect(log.find((r) => r.type === 'agent.message')).toMatchObject({ direction: 'in' });
  });

  it('never reuses a session id, across restarts of the server', async () => {
    const first = await roomWithSession();
    await first.agent.request('session.end', {});
    await first.server.close();
    const second = await startTestServer({ logsDir: first.server.logsDir });
    const host = await TestClient.join(second.url, 'host');
    scriptHost(host);
    const agent = await TestClient.join(second.url, 'agent');
    const started = await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P08' });
    expect(started.payload.sessionId).not.toBe(first.sessionId);
    expect(String(started.payload.sessionId)).toMatch(/^s-\d{8}-002$/);
  });

  it('continues the same session when the same study and participant start again, and refuses another', async () => {
    const { agent, sessionId } = await roomWithSession();
    const again = await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
    expect(again.payload.sessionId).toBe(sessionId);
    const other = await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P99' });
    expect(other.payload).toMatchObject({ code: 'INVALID_MESSAGE', message: expect.stringContaining('session.end') });
  });

  it('closes open logs with a relay.shutdown record when the server stops', async () => {
    const { server, logPath } = await roomWithSession();
    await server.close();
    expect(readLog(logPath).at(-1)).toMatchObject({ type: 'relay.shutdown', direction: 'internal' });
  });

  it('ends every open study log with the fatal fault named when the server is aborted (what usher serve does before exiting)', async () => {
    const server = await startTestServer();
    const paths: string[] = [];
    for (const room of ['a', 'b']) {
      const host = await TestClient.join(server.url, 'host', room);
      scriptHost(host);
      const agent = await TestClient.join(server.url, 'agent', room);
      const started = await agent.request('session.start', { studyId: 'pilot-01', participantId: room });
      paths.push(join(server.logsDir, `${String(started.payload.sessionId)}.jsonl`));
    }
    server.abort('fatal error: out of memory');
    for (const path of paths) {
      expect(readLog(path).at(-1)).toMatchObject({
        type: 'relay.shutdown',
        payload: { reason: 'fatal error: out of memory' },
      });
    }
  });
});
