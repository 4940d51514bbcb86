import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StudyLogRecordSchema } from '@usher/protocol';
import { TestClient } from '@usher/server/testing';
import { expect, it, onTestFinished } from 'vitest';
import { startServe } from './test-helpers.ts';

it('leaves a valid JSONL prefix holding every forwarded frame after kill -9 mid-session', async () => {
  const logs = mkdtempSync(join(tmpdir(), 'usher-crash-'));
  onTestFinished(() => rmSync(logs, { recursive: true, force: true }));
  const { child, url } = await startServe(['--headless-host', '--logs', logs]);

  const agent = await TestClient.join(url, 'agent');
  await agent.request('session.start', { studyId: 'crash-test', participantId: 'P01' });
  // Keep a window of calls in flight, so the process dies with frames on their way through the relay.
  let sent = 0;
  const send = () => {
    const toolName = sent % 2 === 0 ? 'filter' : 'clearModification';
    const params = toolName === 'filter' ? { field: 'genre', operator: 'neq', value: 'Horror' } : {};
    agent.send({ v: 'mvp-0.2', type: 'tool.call', id: `c${sent++}`, payload: { toolName, params, reason: 'load' } });
  };
  agent.ws.on('message', (data) => {
    if (String(data).includes('"type":"tool.result"')) send();
  });
  for (let i = 0; i < 20; i++) send();
  await agent.waitFor((f) => f.type === 'tool.result' && f.replyTo === 'c200', 20_000);
  const died = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGKILL');
  await died;
  await agent.closed();

  const [file] = readdirSync(logs);
  const text = readFileSync(join(logs, file as string), 'utf8');
  // kill -9 can stop a record's write of several pages part-way: after the last line end lies at
  // most a record cut short, whose frame nobody received (it is written whole before it is
  // forwarded); the next start cuts it back (study-log/repair.test.ts).
  const whole = text.slice(0, text.lastIndexOf('\n') + 1);
  expect(text.length - whole.length).toBeLessThan(64 * 1024);
  const records = whole
    .trimEnd()
    .split('\n')
    .map((line) => StudyLogRecordSchema.parse(JSON.parse(line)));
  expect(records.map((r) => r.eventIndex)).toEqual(records.map((_, i) => i));

  const received = agent.frames.filter((f) => f.type === 'tool.result');
  const logged = new Set(records.filter((r) => r.type === 'tool.result').map((r) => r.replyTo));
  expect(received.length).toBeGreaterThan(200);
  expect(received.filter((f) => !logged.has(f.replyTo))).toEqual([]);
  const updates = agent.frames.filter((f) => f.type === 'state.updated').length;
  expect(records.filter((r) => r.type === 'state.updated').length).toBeGreaterThanOrEqual(updates);
  const calledIds = new Set(records.filter((r) => r.type === 'tool.call').map((r) => r.id));
  expect(received.filter((f) => !calledIds.has(f.replyTo))).toEqual([]);
}, 30_000);
