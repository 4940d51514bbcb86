import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BookingEngine, defaultScenario, parseScenario, type Scenario } from '@usher/booking';
import type { Item, UiSpec } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { bookThrough, callTool, readLog, startTestServer, TestClient, twoAdjacentSeats } from '../testing/index.ts';

async function studyWithHeadlessHost(scenario: Scenario = defaultScenario()) {
  const server = await startTestServer({ headlessHost: true, scenario });
  const agent = await TestClient.join(server.url, 'agent');
  const started = await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
  const sessionId = String(started.payload.sessionId);
  return { server, agent, sessionId, logPath: join(server.logsDir, `${sessionId}.jsonl`) };
}

const participant = (url: string, path: string, body?: object) =>
  fetch(`${url}/api/rooms/default/participant/${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json' },
    ...(body && { body: JSON.stringify(body) }),
  });

describe('headless host', () => {
  it('lets a scripted agent book through tool calls alone, and books what it chose', async () => {
    const { server, agent } = await studyWithHeadlessHost();
    const choices = await bookThrough(agent);
    const booking = server.headlessHost?.submitted();
    expect(booking).toMatchObject({
      movieId: choices.movie,
      theaterId: choices.theater,
      date: choices.date,
      showingId: choices.showing,
      tickets: [expect.objectContaining({ typeId: 'adult', quantity: choices.adults })],
    });
    expect(booking?.seats.map((s) => s.id).sort()).toEqual([...choices.seats].sort());
    const after = await agent.request('snapshot.get');
    expect(after.payload.uiSpec).toBeNull();
    expect(after.payload.messageHistory).toContainEqual(
      expect.objectContaining({ role: 'system', text: expect.stringContaining(booking?.reference as string) }),
    );
  });

  it('pushes state.updated with source agent after each tool call and host after session.start', async () => {
    const server = await startTestServer({ headlessHost: true, scenario: defaultScenario() });
    const agent = await TestClient.join(server.url, 'agent');
    await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
    expect((await agent.waitFor((f) => f.type === 'state.updated')).payload.source).toBe('host');
    const spec = (await agent.request('snapshot.get')).payload.uiSpec as UiSpec;
    const item = spec.visibleItems[0]?.id;
    await callTool(agent, 'select', { itemId: item }, 'first movie');
    const update = await agent.waitFor((f) => f.type === 'state.updated' && f.payload.source === 'agent');
    expect(update.payload).toMatchObject({ action: { toolName: 'select', params: { itemId: item } } });
    expect((update.payload.uiSpec as UiSpec).state.selected).toBe(item);
  });

  describe('answers with the error codes DESIGN.md assigns, with replyTo', () => {
    it('UNKNOWN_TOOL for a tool missing from the current toolSchema, listing the tools that are', async () => {
      const { agent } = await studyWithHeadlessHost();
      const notATool = await agent.request('tool.call', { toolName: 'book', params: {}, reason: 'try' }, 'u1');
      expect(notATool).toMatchObject({ replyTo: 'u1', payload: { code: 'UNKNOWN_TOOL' } });
      const tooEarly = await agent.request('tool.call', { toolName: 'next', params: {}, reason: 'skip ahead' }, 'u2');
      expect(tooEarly).toMatchObject({
        replyTo: 'u2',
        payload: { code: 'UNKNOWN_TOOL', message: expect.stringContaining('select') },
      });
    });

    it('INVALID_PARAMS for bad params, an item that is not visible, and a blank reason', async () => {
      const { agent } = await studyWithHeadlessHost();
      const badParams = await agent.request(
        'tool.call',
        { toolName: 'select', params: { item: 'x' }, reason: 'r' },
        'p1',
      );
      expect(badParams).toMatchObject({ replyTo: 'p1', payload: { code: 'INVALID_PARAMS' } });
      const hidden = await agent.request(
        'tool.call',
        { toolName: 'select', params: { itemId: 'no-such-movie' }, reason: 'r' },
        'p2',
      );
      expect(hidden).toMatchObject({ replyTo: 'p2', payload: { code: 'INVALID_PARAMS' } });
      const blank = await agent.request('tool.call', { toolName: 'next', params: {}, reason: '' }, 'p3');
      expect(blank).toMatchObject({ replyTo: 'p3', payload: { code: 'INVALID_PARAMS' } });
    });

    it('TOOL_EXECUTION_FAILED for a taken seat, NO_ACTIVE_SPEC after the booking is submitted', async () => {
      const { agent } = await studyWithHeadlessHost();
      let spec = (await agent.request('snapshot.get')).payload.uiSpec as UiSpec;
      while (spec.stage !== 'seat') {
        const first = spec.visibleItems.find((i) => !i.isDisabled);
        await callTool(agent, 'select', { itemId: first?.id }, 'first option');
        spec = (await callTool(agent, 'next', {}, 'go on')) as UiSpec;
      }
      const taken = spec.visibleItems.find((i) => i.isDisabled);
      expect(taken).toBeDefined();
      const refused = await agent.request(
        'tool.call',
        { toolName: 'select', params: { itemId: taken?.id }, reason: 'r' },
        'x1',
      );
      expect(refused).toMatchObject({ replyTo: 'x1', payload: { code: 'TOOL_EXECUTION_FAILED' } });

      await bookThrough(agent);
      const late = await agent.request(
        'tool.call',
        { toolName: 'select', params: { itemId: 'm1' }, reason: 'again' },
        'x2',
      );
      expect(late).toMatchObject({ replyTo: 'x2', payload: { code: 'NO_ACTIVE_SPEC' } });
      const post = await agent.request('tool.call', {
        toolName: 'postMessage',
        params: { text: 'Enjoy the film!' },
        reason: 'say goodbye',
      });
      expect(post.type).toBe('tool.result');
    });

    it('changes nothing when a call fails', async () => {
      const { agent } = await studyWithHeadlessHost();
      const before = (await agent.request('snapshot.get')).payload;
      await agent.request('tool.call', {
        toolName: 'filter',
        params: { field: 'nope', operator: 'eq', value: 1 },
        reason: 'r',
      });
      await agent.request('tool.call', { toolName: 'select', params: { itemId: 'ghost' }, reason: 'r' });
      expect((await agent.request('snapshot.get')).payload).toEqual(before);
    });
  });

  it('never lets a backendData canary out, in any frame, log line or HTTP answer', async () => {
    const CANARY = 'CANARY-7f3a9c-backend-only';
    const raw = JSON.parse(JSON.stringify(defaultScenario()));
    for (const list of [raw.movies, raw.theaters, raw.showings]) {
      for (const record of list) record.internal = { distributorCode: CANARY, note: `${CANARY} internal` };
    }
    const scenario = parseScenario(raw);
    const probe = new BookingEngine(scenario);
    expect(JSON.stringify(probe.backendData())).toContain(CANARY);

    const { server, agent, logPath } = await studyWithHeadlessHost(scenario);
    const observer = await TestClient.join(server.url, 'observer');
    const say = await participant(server.url, 'message', { text: 'Something fun tonight' });
    expect(say.status).toBe(202);
    await bookThrough(agent);
    await agent.request('session.end', { reason: 'study-complete' });
    const view = await (await participant(server.url, 'view')).text();

    for (const text of [
      JSON.stringify(agent.frames),
      JSON.stringify(observer.frames),
      readFileSync(logPath, 'utf8'),
      view,
    ]) {
      expect(text).not.toContain(CANARY);
    }
    expect(agent.frames.length).toBeGreaterThan(20);
  });

  it('lets an agent that reconnects resync with snapshot.get and finish', async () => {
    const { server, agent, sessionId } = await studyWithHeadlessHost();
    const spec = (await agent.request('snapshot.get')).payload.uiSpec as UiSpec;
    await callTool(agent, 'select', { itemId: spec.visibleItems[1]?.id }, 'second movie');
    await callTool(agent, 'next', {}, 'movie chosen');
    agent.close();
    await agent.closed();

    const again = await TestClient.join(server.url, 'agent');
    const resumed = await again.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
    expect(resumed.payload.sessionId).toBe(sessionId);
    const snapshot = await again.request('snapshot.get');
    expect(snapshot.payload).toMatchObject({ sessionId, uiSpec: { stage: 'theater' } });
    const choices = await bookThrough(again, { movie: spec.visibleItems[1]?.id, seats: [], adults: 0 });
    expect(server.headlessHost?.submitted()?.movieId).toBe(choices.movie);
  });

  it('resets on session.end and reports the log file', async () => {
    const { agent, sessionId, logPath } = await studyWithHeadlessHost();
    const spec = (await agent.request('snapshot.get')).payload.uiSpec as UiSpec;
    await callTool(agent, 'select', { itemId: spec.visibleItems[0]?.id }, 'first movie');
    await callTool(agent, 'next', {}, 'on to theaters');
    const nextReset = agent.nextMatching((f) => f.type === 'state.updated' && f.payload.source === 'host');
    const ended = await agent.request('session.end', { reason: 'study-complete' });
    expect(ended.payload).toMatchObject({ sessionId, stateReset: true });
    expect(logPath.endsWith(String(ended.payload.logFile))).toBe(true);
    const reset = await nextReset;
    expect((reset.payload.uiSpec as UiSpec).stage).toBe('movie');
    expect(readLog(logPath).at(-1)?.type).toBe('session.ended');
  });
});

describe('participant API', () => {
  it('forwards a chat message as user.message with the stage, then state.updated from the user', async () => {
    const { server, agent } = await studyWithHeadlessHost();
    const response = await participant(server.url, 'message', { text: 'Two seats for something funny, please' });
    expect(response.status).toBe(202);
    const message = await agent.waitFor((f) => f.type === 'user.message');
    expect(message.payload).toEqual({ text: 'Two seats for something funny, please', stage: 'movie' });
    const update = await agent.waitFor((f) => f.type === 'state.updated' && f.payload.source === 'user');
    expect(update.payload.messageHistory).toContainEqual(
      expect.objectContaining({ role: 'participant', text: 'Two seats for something funny, please' }),
    );
  });

  it('acts in the UI as the participant, and the log records the action', async () => {
    const { server, agent, logPath } = await studyWithHeadlessHost();
    const spec = (await (await participant(server.url, 'view')).json()).uiSpec as UiSpec;
    const item = spec.visibleItems[2]?.id;
    const response = await participant(server.url, 'action', { toolName: 'select', params: { itemId: item } });
    expect(response.status).toBe(200);
    expect((await response.json()).uiSpec.state.selected).toBe(item);
    const update = await agent.waitFor((f) => f.type === 'state.updated' && f.payload.source === 'user');
    expect(update.payload.action).toEqual({ toolName: 'select', params: { itemId: item } });
    const log = readLog(logPath);
    const action = log.findIndex((r) => r.type === 'participant.action');
    expect(log[action]).toMatchObject({ direction: 'internal', payload: { toolName: 'select' } });
    expect(log[action + 1]).toMatchObject({ type: 'state.updated', direction: 'out', payload: { source: 'user' } });
  });

  it('refuses bad requests with the protocol codes and changes nothing', async () => {
    const { server } = await studyWithHeadlessHost();
    const before = await (await participant(server.url, 'view')).json();
    const cases: Array<[string, object | string, number, string]> = [
      ['message', { text: '' }, 400, 'INVALID_MESSAGE'],
      ['message', 'not json', 400, 'INVALID_MESSAGE'],
      ['action', { toolName: 'select', params: { itemId: 'ghost' } }, 400, 'INVALID_PARAMS'],
      ['action', { toolName: 'next' }, 400, 'UNKNOWN_TOOL'],
    ];
    for (const [path, body, status, code] of cases) {
      const response = await fetch(`${server.url}/api/rooms/default/participant/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      expect([path, response.status]).toEqual([path, status]);
      expect((await response.json()).error.code).toBe(code);
    }
    const other = await fetch(`${server.url}/api/rooms/elsewhere/participant/view`);
    expect(other.status).toBe(404);
    expect(await (await participant(server.url, 'view')).json()).toEqual(before);
  });
});

describe('seat helper', () => {
  it('finds two adjacent free seats', () => {
    const seats: Item[] = [
      { id: 'A1', value: 'A1', row: 'A', rowIndex: 0, number: 1 },
      { id: 'A3', value: 'A3', row: 'A', rowIndex: 0, number: 3 },
      { id: 'A4', value: 'A4', row: 'A', rowIndex: 0, number: 4, isDisabled: true },
      { id: 'B2', value: 'B2', row: 'B', rowIndex: 1, number: 2 },
      { id: 'B3', value: 'B3', row: 'B', rowIndex: 1, number: 3 },
    ];
    expect(twoAdjacentSeats(seats)).toEqual(['B2', 'B3']);
  });
});

describe('study page serving', () => {
  it('says how to build the page when it is not built, and keeps the API working', async () => {
    const server = await startTestServer({ webRoot: mkdtempSync(join(tmpdir(), 'usher-web-')) });
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('npm run build');
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
