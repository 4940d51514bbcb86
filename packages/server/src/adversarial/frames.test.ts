import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultScenario } from '@usher/booking';
import { StudyLogRecordSchema } from '@usher/protocol';
import { loadCorpus } from '@usher/protocol/node';
import type { LogFileIo } from '@usher/relay';
import { NODE_FILE_IO } from '@usher/relay';
import { describe, expect, it } from 'vitest';
import { envelope, scriptHost, startTestServer, TestClient } from '../testing/index.ts';

/*
 * Hostile frames and a full disk: the process survives whatever arrives, every study log parses
 * line by line with gapless indices after each fault, and a study in another room goes on.
 */

/** Every line of a study log is a whole record, and the indices run 0, 1, 2 … */
function expectValidLog(path: string) {
  const text = readFileSync(path, 'utf8');
  expect(text === '' || text.endsWith('\n')).toBe(true);
  const records = text
    .split('\n')
    .filter(Boolean)
    .map((line) => StudyLogRecordSchema.parse(JSON.parse(line)));
  expect(records.map((r) => r.eventIndex)).toEqual(records.map((_, i) => i));
  return records;
}

async function studyRoom(url: string, logsDir: string, room: string) {
  const host = await TestClient.join(url, 'host', room);
  scriptHost(host);
  const agent = await TestClient.join(url, 'agent', room);
  const started = await agent.request('session.start', { studyId: 'pilot-01', participantId: room });
  return { host, agent, logPath: join(logsDir, `${String(started.payload.sessionId)}.jsonl`) };
}

const call = (reason: string) => ({ toolName: 'next', params: {}, reason });

/** A small deterministic random source, so a failing fuzz run can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('hostile frames', () => {
  it('refuses deep nesting before joining and inside a session, and stays up (regression: a 12 KB frame killed the server)', async () => {
    const server = await startTestServer();
    const bystander = await studyRoom(server.url, server.logsDir, 'bystander');
    const deep = `${'['.repeat(6000)}${']'.repeat(6000)}`;
    const stranger = await TestClient.connect(server.url);
    stranger.send(`{"v":"mvp-0.2","type":"relay.join","id":"j","payload":{"x":${deep}}}`);
    expect((await stranger.waitFor((f) => f.type === 'error')).payload).toMatchObject({
      code: 'INVALID_MESSAGE',
      message: expect.stringMatching(/deeper than 64/),
    });
    const { agent, logPath } = await studyRoom(server.url, server.logsDir, 'target');
    agent.send(
      `{"v":"mvp-0.2","type":"tool.call","id":"d","payload":{"toolName":"next","reason":"r","params":{"a":${deep}}}}`,
    );
    expect((await agent.waitFor((f) => f.replyTo === 'd')).payload.code).toBe('INVALID_MESSAGE');
    expect((await bystander.agent.request('tool.call', call('undisturbed'))).type).toBe('tool.result');
    expectValidLog(logPath);
  });

  it('forwards and logs an agent’s payload without the fields the contract does not know (as the README says)', async () => {
    const server = await startTestServer();
    const { host, agent, logPath } = await studyRoom(server.url, server.logsDir, 'extra');
    agent.send(envelope('agent.message', { text: 'hi', secret: 'EXTRA-FIELD' }, { id: 'x1' }));
    agent.send(envelope('tool.call', { ...call('with junk'), junk: { a: 1 } }, { id: 'x2' }));
    await agent.waitFor((f) => f.replyTo === 'x2');
    const forwarded = JSON.stringify(host.frames);
    expect(forwarded).toContain('with junk');
    expect(forwarded).not.toContain('EXTRA-FIELD');
    expect(forwarded).not.toContain('"junk":');
    const logged = JSON.stringify(expectValidLog(logPath));
    expect(logged).not.toContain('EXTRA-FIELD');
    expect(logged).not.toContain('"junk":');
  });

  it('refuses a host’s frame nested past the limit even on one line, and never forwards a duplicated payload it did not check', async () => {
    const server = await startTestServer();
    const { host, agent, logPath } = await studyRoom(server.url, server.logsDir, 'deep-host');
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    host.send(
      `{"v":"mvp-0.2","type":"state.updated","payload":{"source":"host","uiSpec":{"x":${deep}},"messageHistory":[],"toolSchema":[]}}`,
    );
    expect((await host.waitFor((f) => f.type === 'error')).payload.message).toMatch(/deeper than 64/);
    expect(agent.frames.filter((f) => f.type === 'state.updated' && JSON.stringify(f).includes('"x"'))).toEqual([]);
    // An agent frame with two payloads: only the one the relay checked (the parser's, the last) goes on.
    agent.send(
      '{"v":"mvp-0.2","type":"tool.call","id":"dup","payload":{"toolName":"submitBooking","params":{},"reason":"A"},"payload":{"toolName":"next","params":{},"reason":"B"}}',
    );
    await agent.waitFor((f) => f.replyTo === 'dup');
    expect(JSON.stringify(host.frames)).not.toContain('submitBooking');
    expect(JSON.stringify(expectValidLog(logPath))).not.toContain('submitBooking');
  });

  it('writes a pretty-printed frame as one record on one line', async () => {
    const server = await startTestServer();
    const { agent, logPath } = await studyRoom(server.url, server.logsDir, 'pretty');
    agent.send(JSON.stringify(envelope('tool.call', call('a reason\nover two lines'), { id: 'p1' }), null, 2));
    expect((await agent.waitFor((f) => f.replyTo === 'p1')).type).toBe('tool.result');
    const records = expectValidLog(logPath);
    expect(records.find((r) => r.id === 'p1')?.payload).toMatchObject({ reason: 'a reason\nover two lines' });
  });

  it('survives thousands of mutated frames from agents and hosts, goes on answering, and keeps its logs valid', async () => {
    const server = await startTestServer();
    const bystander = await studyRoom(server.url, server.logsDir, 'bystander');
    const { host, agent, logPath } = await studyRoom(server.url, server.logsDir, 'fuzzed');
    const seeds = [
      ...loadCorpus().rejected.map((f) => (typeof f.frame === 'string' ? f.frame : JSON.stringify(f.frame))),
      JSON.stringify(envelope('tool.call', call('fuzz'))),
      JSON.stringify(envelope('state.updated', { source: 'host', uiSpec: null, messageHistory: [], toolSchema: [] })),
      JSON.stringify(envelope('error', { code: 'INVALID_PARAMS', message: 'x'.repeat(5000) }, { replyTo: 'r1' })),
    ];
    const next = random(20261124);
    const pieces = ['{', '}', '[', ']', '"', ',', ':', '\\', '\u0000', '\ud800', 'null', '1e309', '"__proto__"', '\n'];
    const mutate = (text: string): string => {
      let out = text;
      for (let n = 1 + Math.floor(next() * 4); n > 0; n--) {
        const at = Math.floor(next() * (out.length + 1));
        const what = next();
        if (what < 0.4) out = out.slice(0, at) + (pieces[Math.floor(next() * pieces.length)] ?? '') + out.slice(at);
        else if (what < 0.7) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(next() * 8));
        else out = out.slice(0, at) + out.slice(at, at + 40).repeat(2) + out.slice(at);
      }
      return out;
    };
    let sentWithId = 0;
    for (let i = 0; i < 3000; i++) {
      const frame = mutate(seeds[Math.floor(next() * seeds.length)] as string);
      (i % 3 === 0 ? host : agent).send(frame);
      if (i % 3 !== 0 && /"id"\s*:\s*"/.test(frame)) sentWithId++;
      if (i % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    // The relay is still up and in order: a fresh request is answered, in both rooms.
    expect((await agent.request('tool.call', call('after the storm'), 'final')).type).toBe('tool.result');
    expect((await bystander.agent.request('tool.call', call('undisturbed'))).type).toBe('tool.result');
    expect(sentWithId).toBeGreaterThan(100);
    expect(agent.frames.filter((f) => f.replyTo === 'final')).toHaveLength(1);
    expectValidLog(logPath);
    expectValidLog(bystander.logPath);
  }, 30_000);
});

/** File calls that fail with ENOSPC while `full` is set, after writing part of what they were given. */
function fillableDisk(): { io: LogFileIo; setFull(full: boolean): void } {
  let full = false;
  return {
    io: {
      ...NODE_FILE_IO,
      write(fd, bytes, offset, position) {
        if (!full) return NODE_FILE_IO.write(fd, bytes, offset, position);
        // Half of the record reaches the file, then the disk is full.
        const half = Math.max(1, Math.floor((bytes.length - offset) / 2));
        NODE_FILE_IO.write(fd, bytes.subarray(0, offset + half), offset, position);
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      },
      sync(fd) {
        if (full) throw Object.assign(new Error('ENOSPC: no space left on device, fsync'), { code: 'ENOSPC' });
        NODE_FILE_IO.sync(fd);
      },
    },
    setFull(value) {
      full = value;
    },
  };
}

describe('a full disk', () => {
  it('forwards nothing it could not log, keeps the log valid and gapless, and goes on once there is room', async () => {
    const disk = fillableDisk();
    const server = await startTestServer({ logIo: disk.io });
    const { host, agent, logPath } = await studyRoom(server.url, server.logsDir, 'full');
    const before = host.frames.filter((f) => f.type === 'tool.call').length;
    disk.setFull(true);
    const refused = await agent.request('tool.call', call('while the disk is full'));
    expect(refused.payload).toMatchObject({
      code: 'TOOL_EXECUTION_FAILED',
      message: expect.stringMatching(/study log could not be written/),
    });
    expect(host.frames.filter((f) => f.type === 'tool.call')).toHaveLength(before);
    expectValidLog(logPath);

    disk.setFull(false);
    expect((await agent.request('tool.call', call('the disk has room again'))).type).toBe('tool.result');
    const records = expectValidLog(logPath);
    expect(records.filter((r) => r.type === 'tool.call').map((r) => (r.payload as { reason: string }).reason)).toEqual([
      'the disk has room again',
    ]);
  });

  it('does not forward a host’s reply it could not log: the requester gets an error instead', async () => {
    const disk = fillableDisk();
    const server = await startTestServer({ logIo: disk.io });
    const host = await TestClient.join(server.url, 'host', 'reply');
    scriptHost(host, (frame) => {
      if (frame.type !== 'tool.call') return false;
      disk.setFull(true); // the disk fills while the host works
      host.send(envelope('tool.result', { ok: true, toolName: 'next' }, { replyTo: frame.id as string }));
      return true;
    });
    const agent = await TestClient.join(server.url, 'agent', 'reply');
    const started = await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P01' });
    const reply = await agent.request('tool.call', call('the reply cannot be logged'));
    expect(reply).toMatchObject({
      type: 'error',
      payload: { code: 'TOOL_EXECUTION_FAILED', message: expect.stringMatching(/not forwarded/) },
    });
    disk.setFull(false);
    expectValidLog(join(server.logsDir, `${String(started.payload.sessionId)}.jsonl`));
  });

  it('ends a session on a full disk with a clear error and frees the room for the next one', async () => {
    const disk = fillableDisk();
    const server = await startTestServer({ logIo: disk.io });
    const { agent, logPath } = await studyRoom(server.url, server.logsDir, 'ending');
    disk.setFull(true);
    const ended = await agent.request('session.end', { reason: 'done' });
    expect(ended.payload).toMatchObject({
      code: 'TOOL_EXECUTION_FAILED',
      message: expect.stringMatching(/ended, but its log could not be completed/),
    });
    expect(server.relay.status()[0]?.studySession).toBeNull();
    disk.setFull(false);
    expectValidLog(logPath);
    const next = await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P02' });
    expect(next.type).toBe('session.started');
  });

  it('answers the participant API with an error, never "done", for what the relay could not log', async () => {
    const disk = fillableDisk();
    const server = await startTestServer({ logIo: disk.io, headlessHost: true, scenario: defaultScenario() });
    const agent = await TestClient.join(server.url, 'agent', 'default');
    await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P01' });
    const api = (path: string, body: object) =>
      fetch(`${server.url}/api/rooms/default/participant/${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const film = server.headlessHost?.view().uiSpec?.visibleItems[0]?.id;

    disk.setFull(true);
    const refused = await api('action', { toolName: 'select', params: { itemId: film } });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({
      error: { code: 'TOOL_EXECUTION_FAILED', message: expect.stringMatching(/was not recorded/) },
    });
    const said = await api('message', { text: 'two tickets please' });
    expect(said.status).toBe(503);

    disk.setFull(false);
    expect((await api('action', { toolName: 'select', params: { itemId: film } })).status).toBe(200);
    expect((await api('message', { text: 'two tickets please' })).status).toBe(202);
  });
});
