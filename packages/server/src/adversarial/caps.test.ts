import { defaultScenario } from '@usher/booking';
import { MAX_CHAT_TEXT, MAX_ERROR_TEXT, MAX_ITEMS_PER_CALL } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { envelope, readLog, scriptHost, startTestServer, TestClient } from '../testing/index.ts';

/*
 * The caps on chat text and id lists, through the real relay and the real booking engine: one
 * character or one id past a cap is refused with its code, nothing past it reaches the page, and
 * every answer stays small, whatever the request held.
 */

const text = (n: number) => 'a'.repeat(n);
const ids = (n: number) => Array.from({ length: n }, (_, i) => `m${i}`);

/** A study session in the default room of a server whose booking engine is the host. */
async function bookingSession() {
  const server = await startTestServer({ headlessHost: true, scenario: defaultScenario() });
  const agent = await TestClient.join(server.url, 'agent');
  const started = await agent.request('session.start', { studyId: 'caps', participantId: 'P1' });
  expect(started.type).toBe('session.started');
  const chat = () => server.headlessHost?.view().messageHistory ?? [];
  const call = (toolName: string, params: object) => agent.request('tool.call', { toolName, params, reason: 'test' });
  return { server, agent, chat, call, logPath: `${server.logsDir}/${started.payload.sessionId}.jsonl` };
}

describe('chat text caps', () => {
  it(`passes an agent.message of ${MAX_CHAT_TEXT} characters and refuses one of ${MAX_CHAT_TEXT + 1}`, async () => {
    const server = await startTestServer();
    const host = await TestClient.join(server.url, 'host');
    scriptHost(host);
    const agent = await TestClient.join(server.url, 'agent');
    await agent.request('session.start', { studyId: 'caps', participantId: 'P1' });

    const refused = agent.request('agent.message', { text: text(MAX_CHAT_TEXT + 1) });
    expect((await refused).payload.code).toBe('INVALID_MESSAGE');
    agent.send(envelope('agent.message', { text: text(MAX_CHAT_TEXT) }));
    const shown = await host.waitFor((f) => f.type === 'agent.message');
    expect(String(shown.payload.text)).toHaveLength(MAX_CHAT_TEXT);
    expect(host.frames.filter((f) => f.type === 'agent.message')).toHaveLength(1);
  });

  it(`refuses a participant's user.message over ${MAX_CHAT_TEXT} characters before any agent sees it`, async () => {
    const server = await startTestServer();
    const host = await TestClient.join(server.url, 'host');
    scriptHost(host);
    const agent = await TestClient.join(server.url, 'agent');
    await agent.request('session.start', { studyId: 'caps', participantId: 'P1' });

    host.send(envelope('user.message', { text: text(MAX_CHAT_TEXT + 1), stage: 'movie' }));
    expect((await host.nextMatching((f) => f.type === 'error')).payload.code).toBe('INVALID_MESSAGE');
    host.send(envelope('user.message', { text: text(MAX_CHAT_TEXT), stage: 'movie' }));
    const heard = await agent.waitFor((f) => f.type === 'user.message');
    expect(String(heard.payload.text)).toHaveLength(MAX_CHAT_TEXT);
    expect(agent.frames.filter((f) => f.type === 'user.message')).toHaveLength(1);
  });

  it(`refuses a postMessage over ${MAX_CHAT_TEXT} characters, and the participant API the same`, async () => {
    const { server, call, chat } = await bookingSession();
    const tooLong = await call('postMessage', { text: text(MAX_CHAT_TEXT + 1) });
    expect(tooLong.type).toBe('error');
    expect(tooLong.payload.code).toBe('INVALID_PARAMS');
    expect(chat()).toEqual([]);
    expect((await call('postMessage', { text: text(MAX_CHAT_TEXT) })).type).toBe('tool.result');
    expect(chat()).toHaveLength(1);

    const say = (n: number) =>
      fetch(`${server.url}/api/rooms/default/participant/message`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: text(n) }),
      });
    expect((await say(MAX_CHAT_TEXT + 1)).status).toBe(400);
    expect(chat()).toHaveLength(1);
    expect((await say(MAX_CHAT_TEXT)).status).toBeLessThan(300);
    expect(chat()).toHaveLength(2);
  });
});

describe('id list caps', () => {
  it(`refuses a list of ${MAX_ITEMS_PER_CALL + 1} ids or items in every tool that takes one, with a short answer`, async () => {
    const { call, logPath } = await bookingSession();
    const calls: Array<[string, object]> = [
      ['highlight', { itemIds: ids(MAX_ITEMS_PER_CALL + 1) }],
      ['augment', { items: ids(MAX_ITEMS_PER_CALL + 1).map((itemId) => ({ itemId, text: 'x' })) }],
      ['filter', { field: 'genre', operator: 'in', value: ids(MAX_ITEMS_PER_CALL + 1) }],
      // Far past the cap, still under the frame limit: the answer does not grow with the request.
      ['highlight', { itemIds: ids(80_000) }],
    ];
    for (const [toolName, params] of calls) {
      const answer = await call(toolName, params);
      expect(answer.type, toolName).toBe('error');
      expect(answer.payload.code, toolName).toBe('INVALID_PARAMS');
      expect(String(answer.payload.message).length).toBeLessThanOrEqual(MAX_ERROR_TEXT);
    }
    const records = readLog(logPath);
    expect(records.filter((r) => r.type === 'error' && r.direction === 'out')).toHaveLength(calls.length);
  });

  it(`answers a list of ${MAX_ITEMS_PER_CALL} unknown ids with an error whose text stays within ${MAX_ERROR_TEXT} characters`, async () => {
    const { call } = await bookingSession();
    const answer = await call('highlight', {
      itemIds: ids(MAX_ITEMS_PER_CALL).map((id) => `${id}-${'z'.repeat(100)}`),
    });
    expect(answer.type).toBe('error');
    expect(String(answer.payload.message).length).toBeLessThanOrEqual(MAX_ERROR_TEXT);
  });

  it(`cuts a host's error text to ${MAX_ERROR_TEXT} characters, saying how much was left out`, async () => {
    const server = await startTestServer();
    const host = await TestClient.join(server.url, 'host');
    scriptHost(host, (frame) => {
      if (frame.type !== 'tool.call') return false;
      const listed = ids(100_000).join(', ');
      host.send(
        envelope(
          'error',
          { code: 'INVALID_PARAMS', message: `unknown ids: ${listed}` },
          { replyTo: frame.id as string },
        ),
      );
      return true;
    });
    const agent = await TestClient.join(server.url, 'agent');
    await agent.request('session.start', { studyId: 'caps', participantId: 'P1' });
    const answer = await agent.request('tool.call', {
      toolName: 'highlight',
      params: { itemIds: ['m1'] },
      reason: 'test',
    });
    expect(answer.payload.code).toBe('INVALID_PARAMS');
    const message = String(answer.payload.message);
    expect(message.length).toBeLessThanOrEqual(MAX_ERROR_TEXT);
    expect(message).toMatch(/^unknown ids: m0, m1, .* … \(\d+ more characters\)$/);
  });
});
