import { readFileSync } from 'node:fs';
import { MAX_ERROR_TEXT } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { envelope, scriptHost, startTestServer, TestClient } from '../testing/index.ts';

/*
 * A study log is read by more than the relay's own JavaScript: the export reads it with DuckDB,
 * researchers with Python or jq. Every such reader must find in it what the host was sent. Two
 * frames an attacker can write made them disagree: a key named twice (JavaScript keeps the last
 * value, DuckDB the first, so the export said the agent wrote or did something other than what the
 * participant saw), and half of a surrogate pair (`\ud83d` alone, which DuckDB refuses, so the
 * export left the whole record out), made by the relay itself when it cut a long error text.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Every string (keys too) in every record of the log is well-formed Unicode; the lines, as text. */
function wellFormedLines(path: string): string[] {
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  for (const line of lines) {
    JSON.parse(line, (key, value) => {
      expect(LONE_SURROGATE.test(key), `a key with half a surrogate pair in ${line.slice(0, 200)}`).toBe(false);
      if (typeof value === 'string') {
        expect(LONE_SURROGATE.test(value), `half a surrogate pair in ${line.slice(0, 200)}`).toBe(false);
      }
      return value;
    });
  }
  return lines;
}

/**
 * A study session in a room whose host is a test client answering like a minimal host
 * (`scriptHost`); `onRequest` may answer a request instead (return true when it did).
 */
async function scriptedSession(onRequest?: Parameters<typeof scriptHost>[1]) {
  const server = await startTestServer();
  const host = await TestClient.join(server.url, 'host');
  scriptHost(host, onRequest);
  const hostTexts: string[] = [];
  host.ws.on('message', (data) => hostTexts.push(String(data)));
  const agent = await TestClient.join(server.url, 'agent');
  const started = await agent.request('session.start', { studyId: 'readers', participantId: 'P1' });
  return { server, host, hostTexts, agent, logPath: `${server.logsDir}/${String(started.payload.sessionId)}.jsonl` };
}

const raw = (type: string, payloadText: string, id?: string) =>
  `{"v":"mvp-0.2","type":"${type}",${id ? `"id":"${id}",` : ''}"payload":${payloadText}}`;

describe('a key named twice in an agent payload', () => {
  it('is logged and forwarded once, with the value the relay checked and the host reads', async () => {
    const { host, hostTexts, agent, logPath } = await scriptedSession();
    agent.send(raw('agent.message', '{"text":"what the log would say","text":"what the participant sees"}'));
    const shown = await host.waitFor((f) => f.type === 'agent.message');
    expect(shown.payload.text).toBe('what the participant sees');
    // The frame the host got names the key once: no reader can take the other value.
    for (const text of hostTexts) expect(text).not.toContain('what the log would say');

    const line = wellFormedLines(logPath).find((l) => l.includes('"type":"agent.message"')) as string;
    expect(line).toBeDefined();
    expect(line).not.toContain('what the log would say');
    expect(line).toContain('what the participant sees');
  });

  it('cannot make the log name another tool, or other items, than the host ran', async () => {
    const { host, agent, logPath } = await scriptedSession();
    agent.send(
      raw(
        'tool.call',
        '{"toolName":"submitBooking","reason":"r","params":{"itemId":"m-logged","itemId":"m-run"},"toolName":"select"}',
        'c1',
      ),
    );
    const ran = await host.waitFor((f) => f.type === 'tool.call');
    expect(ran.payload.toolName).toBe('select');
    expect(ran.payload.params).toEqual({ itemId: 'm-run' });
    expect((await agent.waitFor((f) => f.replyTo === 'c1')).type).toBe('tool.result');

    const line = wellFormedLines(logPath).find((l) => l.includes('"type":"tool.call"')) as string;
    expect(line).not.toContain('submitBooking');
    expect(line).not.toContain('m-logged');
    expect(JSON.parse(line).payload).toEqual({ toolName: 'select', reason: 'r', params: { itemId: 'm-run' } });
  });

  it('counts a key written with escapes as the same key', async () => {
    const { host, agent, logPath } = await scriptedSession();
    agent.send(raw('agent.message', '{"text":"hidden","t\\u0065xt":"shown"}'));
    const shown = await host.waitFor((f) => f.type === 'agent.message');
    expect(shown.payload.text).toBe('shown');
    const line = wellFormedLines(logPath).find((l) => l.includes('"type":"agent.message"')) as string;
    expect(line).not.toContain('hidden');
  });

  it('still forwards, byte for byte, a payload whose keys repeat only in different objects', async () => {
    const { host, hostTexts, agent } = await scriptedSession();
    const text = raw(
      'tool.call',
      '{"toolName":"select","reason":"r","params":{"a":{"id":1},"b":{"id":2},"id":3}}',
      'c2',
    );
    agent.send(text);
    await host.waitFor((f) => f.type === 'tool.call');
    expect(hostTexts.filter((t) => t.includes('"tool.call"'))).toEqual([text]);
  });

  // The check keeps one set of keys per object, so a frame of 60,000 keys costs milliseconds; the
  // test's timeout only catches a stall (comparing every key with every other would take seconds).
  it('is found in a payload of many keys without the relay stalling', { timeout: 10_000 }, async () => {
    const { agent } = await scriptedSession();
    const params = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, i]));
    const answer = await agent.request('tool.call', { toolName: 'select', reason: 'r', params });
    expect(answer.type).toBe('tool.result');
  });
});

describe("a key named twice inside a host's state", () => {
  it('is logged and forwarded once, with the value the agent reads', async () => {
    const { host, agent, logPath } = await scriptedSession();
    host.send(
      raw(
        'state.updated',
        '{"source":"user","uiSpec":{"stage":"seat","title":"LOGGED","title":"SHOWN"},' +
          '"messageHistory":[{"role":"user","text":"I said A","t\\u0065xt":"I said B"}],"toolSchema":[]}',
      ),
    );
    const state = await agent.waitFor((f) => f.type === 'state.updated');
    expect(state.payload.uiSpec).toEqual({ stage: 'seat', title: 'SHOWN' });
    expect(state.payload.messageHistory).toEqual([{ role: 'user', text: 'I said B' }]);
    const line = wellFormedLines(logPath).find((l) => l.includes('"type":"state.updated"')) as string;
    expect(line).not.toContain('LOGGED');
    expect(line).not.toContain('I said A');
    expect(JSON.parse(line).payload.uiSpec).toEqual({ stage: 'seat', title: 'SHOWN' });
  });

  it('still lets a state without one through byte for byte', async () => {
    const { host, agent } = await scriptedSession();
    const texts: string[] = [];
    agent.ws.on('message', (data) => texts.push(String(data)));
    const text = raw(
      'state.updated',
      '{"source":"user","uiSpec":{"stage":"seat","items":[{"id":"a","title":"x"},{"id":"b","title":"y"}]},"messageHistory":[],"toolSchema":[]}',
    );
    host.send(text);
    await agent.waitFor((f) => f.type === 'state.updated');
    expect(texts.filter((t) => t.includes('state.updated'))).toEqual([text]);
  });
});

describe('half a surrogate pair', () => {
  it('is never made by the relay cutting a long error text, so the record stays readable', async () => {
    const { agent, logPath, host } = await scriptedSession((frame) => {
      if (frame.type !== 'tool.call') return false;
      // 1,500 emoji: 3,000 UTF-16 units, cut by the relay to MAX_ERROR_TEXT.
      host.send(envelope('error', { code: 'INVALID_PARAMS', message: '😀'.repeat(1500) }, { replyTo: frame.id }));
      return true;
    });
    const answer = await agent.request('tool.call', { toolName: 'select', reason: 'r', params: {} });
    expect(answer.type).toBe('error');
    const message = String(answer.payload.message);
    expect(message.length).toBeLessThanOrEqual(MAX_ERROR_TEXT);
    expect(LONE_SURROGATE.test(message)).toBe(false);
    wellFormedLines(logPath);
  });

  it('is not made when the relay quotes an unknown message type of emoji in its refusal', async () => {
    const { agent, logPath } = await scriptedSession();
    for (const n of [31, 32, 33, 63, 64, 65]) {
      agent.send({ v: 'mvp-0.2', type: `x${'😀'.repeat(n)}`, payload: {} });
      const refusal = await agent.nextMatching((f) => f.type === 'error');
      expect(LONE_SURROGATE.test(String(refusal.payload.message))).toBe(false);
    }
    wellFormedLines(logPath);
  });

  it("is refused in an agent's frame, and not forwarded: a log line holding it is one DuckDB refuses", async () => {
    const { host, hostTexts, agent, logPath } = await scriptedSession();
    agent.send(raw('agent.message', '{"text":"half \\ud83d of a pair"}'));
    const refusal = await agent.nextMatching((f) => f.type === 'error');
    expect(refusal.payload).toMatchObject({ code: 'INVALID_MESSAGE', message: expect.stringMatching(/surrogate/) });
    agent.send(raw('tool.call', '{"toolName":"select","reason":"r","params":{"itemId":"\\udc00"}}', 'lone'));
    expect((await agent.waitFor((f) => f.replyTo === 'lone')).payload.code).toBe('INVALID_MESSAGE');
    // A whole pair written as escapes is Unicode, and goes on.
    agent.send(raw('agent.message', '{"text":"a whole \\ud83d\\ude00"}'));
    expect((await host.waitFor((f) => f.type === 'agent.message')).payload.text).toBe('a whole 😀');
    expect(hostTexts.filter((t) => t.includes('agent.message'))).toHaveLength(1);
    wellFormedLines(logPath);
  });

  it("is refused in a host's state and reply, whose requester hears why", async () => {
    const { host, agent, logPath } = await scriptedSession((frame) => {
      if (frame.type !== 'tool.call') return false;
      host.send(
        `{"v":"mvp-0.2","type":"tool.result","replyTo":"${frame.id}","payload":{"ok":true,"toolName":"select\\ud800"}}`,
      );
      return true;
    });
    host.send(
      raw(
        'state.updated',
        '{"source":"user","uiSpec":null,"messageHistory":[{"role":"user","text":"\\ud83d"}],"toolSchema":[]}',
      ),
    );
    expect((await host.nextMatching((f) => f.type === 'error')).payload.message).toMatch(/surrogate/);
    const answer = await agent.request('tool.call', { toolName: 'select', reason: 'r', params: {} });
    expect(answer.payload).toMatchObject({
      code: 'TOOL_EXECUTION_FAILED',
      message: expect.stringMatching(/surrogate/),
    });
    host.send(
      raw(
        'state.updated',
        '{"source":"user","uiSpec":null,"messageHistory":[{"role":"user","text":"\\ud83d\\ude00"}],"toolSchema":[]}',
      ),
    );
    const state = await agent.waitFor((f) => f.type === 'state.updated');
    expect(state.payload.messageHistory).toEqual([{ role: 'user', text: '😀' }]);
    expect(agent.frames.filter((f) => f.type === 'state.updated')).toHaveLength(1);
    wellFormedLines(logPath);
  });

  it("is looked for without recursion in a host's frame nested deeper than any stack", async () => {
    const warnings: string[] = [];
    const server = await startTestServer({ warn: (l) => warnings.push(l) });
    const host = await TestClient.join(server.url, 'host');
    const depth = 200_000;
    host.send(
      `{"v":"mvp-0.2","type":"user.message","payload":{"text":"\\ud83d","x":${'['.repeat(depth)}${']'.repeat(depth)}}}`,
    );
    const refusal = await host.nextMatching((f) => f.type === 'error');
    expect(refusal.payload.code).toBe('INVALID_MESSAGE');
    expect(warnings.join('\n')).not.toMatch(/fault/);
  });
});

describe('line breaks other than \\n in a payload', () => {
  // Python's str.splitlines() (and editors) also break lines at U+0085, U+2028 and U+2029, which
  // JSON leaves raw inside strings: the log writes them as escapes, so each record stays one line.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are line breaks to Python.
  const PYTHON_LINE_BREAKS = /\r\n|[\n\r\v\f\x1c-\x1e\u0085\u2028\u2029]/;

  it('are written as escapes: one record a line for every reader, the same text when parsed', async () => {
    const { host, agent, logPath } = await scriptedSession();
    const text = 'line\u2028separated\u2029paragraph\u0085next line';
    agent.send(raw('agent.message', JSON.stringify({ text })));
    expect((await host.waitFor((f) => f.type === 'agent.message')).payload.text).toBe(text);
    const lines = wellFormedLines(logPath);
    for (const line of lines) expect(line.split(PYTHON_LINE_BREAKS)).toHaveLength(1);
    const logged = lines.map((line) => JSON.parse(line)).find((r) => r.type === 'agent.message');
    expect(logged.payload.text).toBe(text);
  });
});
