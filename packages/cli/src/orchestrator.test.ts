import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ORBITAL_IMAX_PAIR } from '@usher/agent/testing';
import { checkBooking, defaultScenario } from '@usher/booking';
import type { AgentInfo, Interaction, JournalRecord, SessionView } from '@usher/orchestrator';
import { startTestServer } from '@usher/server/testing';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  eventually,
  type OrchestratorProcess,
  recordBookings,
  startOrchestratorProcess,
  startRuntimeProcess,
  usher,
} from './sync-test-helpers.ts';
import { startServe } from './test-helpers.ts';

const work = mkdtempSync(join(tmpdir(), 'usher-orchestrator-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let dirs = 0;
const freshDir = (name: string) => join(work, `${name}-${++dirs}`);

const TOKEN = 'orchestrator-test-token';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PAPER_IMAX = 'Paper Lanterns in IMAX tomorrow, two adults';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are what the assertions check
async function http(url: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const headers = new Headers(init.headers);
  if (!headers.has('Authorization')) headers.set('Authorization', `Bearer ${TOKEN}`);
  const response = await fetch(url, { ...init, headers });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const post = (url: string, body?: unknown) =>
  http(url, {
    method: 'POST',
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });

/** A client of the orchestrator's HTTP API. */
function api(orchestrator: { url: string }) {
  return {
    health: async () => (await http(`${orchestrator.url}/healthz`)).body as { agents: AgentInfo[]; waiting: number },
    createSession: async () => (await post(`${orchestrator.url}/api/sessions`)).body as SessionView,
    send: (session: string, message: unknown) => post(`${orchestrator.url}/api/sessions/${session}/messages`, message),
    session: async (id: string) => (await http(`${orchestrator.url}/api/sessions/${id}`)).body as SessionView,
    sessions: async () => (await http(`${orchestrator.url}/api/sessions`)).body.sessions as SessionView[],
    /** Resolves once the interaction has ended (complete or error). */
    ended: (session: string, request: string, seconds = 30) =>
      eventually(async () => {
        const found = (await http(`${orchestrator.url}/api/sessions/${session}`)).body as SessionView;
        const interaction = found.interactions.find((i) => i.request_id === request);
        return interaction && interaction.state !== 'waiting' ? interaction : undefined;
      }, seconds),
  };
}

function journal(dataDir: string): JournalRecord[] {
  return readFileSync(join(dataDir, 'journal.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as JournalRecord);
}

/** Each request ends at most once in the journal, and only a request that was created. */
function endsOnce(records: JournalRecord[]): Map<string, number> {
  const created = new Set(records.flatMap((r) => (r.op === 'interaction' ? [r.request_id] : [])));
  const ends = new Map<string, number>();
  for (const r of records) {
    if (r.op !== 'complete' && r.op !== 'error') continue;
    expect(created.has(r.request_id)).toBe(true);
    ends.set(r.request_id, (ends.get(r.request_id) ?? 0) + 1);
  }
  for (const count of ends.values()) expect(count).toBe(1);
  return ends;
}

async function connectedAgent(orchestrator: OrchestratorProcess): Promise<AgentInfo> {
  return eventually(async () => (await api(orchestrator).health()).agents[0]);
}

describe('usher orchestrator: command line', { timeout: 60_000 }, () => {
  it('needs a token, a valid port and a usable data folder', async () => {
    const noToken = usher(['orchestrator', '--port', '0', '--data', freshDir('d')], { USHER_SYNC_TOKEN: '' });
    expect(await noToken.exited).toBe(2);
    expect(noToken.stderr()).toContain('a token is required: pass --token <token> or set USHER_SYNC_TOKEN');

    const badPort = usher(['orchestrator', '--port', 'eighty', '--token', TOKEN]);
    expect(await badPort.exited).toBe(2);
    expect(badPort.stderr()).toContain('port number');

    const spaced = usher(['orchestrator', '--token', 'two words']);
    expect(await spaced.exited).toBe(2);
    expect(spaced.stderr()).toContain('printable characters without spaces');

    writeFileSync(join(work, 'a-file'), 'not a folder');
    const notAFolder = usher(['orchestrator', '--port', '0', '--token', TOKEN, '--data', join(work, 'a-file', 'x')]);
    expect(await notAFolder.exited).toBe(1);
    expect(notAFolder.stderr()).toContain('cannot create the data folder');

    const runtime = usher(['runtime', '--url', 'ws://127.0.0.1:1']);
    expect(await runtime.exited).toBe(2);
    expect(runtime.stderr()).toMatch(/needs a mode: .*--sync-url <url>/);
  });
});

describe('usher orchestrator with usher runtime --sync-url', { timeout: 60_000 }, () => {
  it('serves sessions end to end: threads, streamed answers, follow-ups, interleaved sessions, and a restart that loses nothing', async () => {
    const relay = await startTestServer({ headlessHost: true, scenario: defaultScenario() });
    const bookings = recordBookings(relay);
    const data = freshDir('data');
    const orchestrator = await startOrchestratorProcess({ token: TOKEN, data });
    startRuntimeProcess({ syncUrl: orchestrator.syncUrl, token: TOKEN, relayUrl: relay.url, episodes: freshDir('ep') });
    const client = api(orchestrator);
    const agent = await connectedAgent(orchestrator);

    // Two sessions, their first messages sent back to back on the one agent connection.
    const a = await client.createSession();
    const b = await client.createSession();
    expect(a.session_id).not.toBe(b.session_id);
    const sentA = await client.send(a.session_id, { message: ORBITAL_IMAX_PAIR.text });
    const sentB = await client.send(b.session_id, { message: PAPER_IMAX });
    expect(sentA.status).toBe(202);
    expect(sentA.body.interaction).toMatchObject({ state: 'waiting', response: '', request_id: sentA.body.request_id });
    const doneA = await client.ended(a.session_id, sentA.body.request_id);
    const doneB = await client.ended(b.session_id, sentB.body.request_id);

    expect(doneA).toMatchObject({ state: 'complete', message_id: expect.stringMatching(/^ai_msg_/) });
    expect(doneA.updates).toBeGreaterThanOrEqual(2);
    expect(doneA.response).toMatch(/booking is confirmed: .*Orbital Drift/i);
    expect(doneB).toMatchObject({ state: 'complete' });
    expect(doneB.response).toMatch(/Paper Lanterns[\s\S]*IMAX/);
    expect(doneB.message_id).not.toBe(doneA.message_id);
    const sessionA = await client.session(a.session_id);
    const sessionB = await client.session(b.session_id);
    expect(sessionA.acp_thread_id).toMatch(UUID);
    expect(sessionB.acp_thread_id).toMatch(UUID);
    expect(sessionA.acp_thread_id).not.toBe(sessionB.acp_thread_id);
    expect(sessionA.agent_id).toBe(agent.agent_id);
    expect(checkBooking(defaultScenario(), bookings[0] as never, ORBITAL_IMAX_PAIR).satisfied).toBe(true);

    // A follow-up goes to the session's thread: only its earlier wishes name the film, the day and the party.
    const followUp = await client.send(b.session_id, { message: 'any format' });
    const doneFollowUp = await client.ended(b.session_id, followUp.body.request_id);
    expect(doneFollowUp.state).toBe('complete');
    expect((await client.session(b.session_id)).acp_thread_id).toBe(sessionB.acp_thread_id);
    expect(bookings[1]).toMatchObject({ movieTitle: 'Paper Lanterns', date: '2026-11-22', tickets: [{ quantity: 2 }] });

    const records = journal(data);
    expect(records.filter((r) => r.op === 'thread').map((r) => r.op === 'thread' && r.session_id)).toEqual([
      a.session_id,
      b.session_id,
    ]);
    expect(endsOnce(records).size).toBe(3);

    // Restarted, the orchestrator has every session as it was, and the agent comes back.
    const before = await client.sessions();
    orchestrator.child.kill('SIGTERM');
    expect(await orchestrator.exited).toBe(0);
    const restarted = await startOrchestratorProcess({ token: TOKEN, data, port: orchestrator.port });
    await restarted.waitFor(/\d+ records replayed/);
    expect(await api(restarted).sessions()).toEqual(before);
    expect((await connectedAgent(restarted)).agent_id).toBe(agent.agent_id);
  });

  it('refuses a wrong or missing token with HTTP 401, and the refused agent changes nothing', async () => {
    const data = freshDir('data');
    const orchestrator = await startOrchestratorProcess({ token: TOKEN, data });
    const upgrade = (headers: Record<string, string>, url = orchestrator.syncUrl) =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(url, { headers });
        ws.on('unexpected-response', (_req, res) => {
          resolve(res.statusCode ?? 0);
          ws.terminate();
        });
        ws.on('error', () => {});
        ws.on('open', () => reject(new Error('the connection was accepted')));
      });
    expect(await upgrade({ Authorization: 'Bearer wrong' })).toBe(401);
    expect(await upgrade({})).toBe(401);
    expect(await upgrade({ Authorization: TOKEN })).toBe(401);
    expect(await upgrade({ Authorization: `Bearer ${TOKEN}` }, `${orchestrator.url.replace('http', 'ws')}/other`)).toBe(
      404,
    );

    const relay = await startTestServer({ headlessHost: true, scenario: defaultScenario() });
    const runtime = startRuntimeProcess({
      syncUrl: orchestrator.syncUrl,
      token: 'not-the-token',
      relayUrl: relay.url,
      episodes: freshDir('ep'),
    });
    await runtime.waitFor(/refused the token \(HTTP 401\); check --sync-token; retrying in 1 s/);
    await orchestrator.waitFor(/refused an agent .*wrong or missing bearer token/);
    expect((await api(orchestrator).health()).agents).toEqual([]);
    const session = await api(orchestrator).createSession();
    expect((await api(orchestrator).send(session.session_id, { message: 'hello' })).status).toBe(503);
    expect(journal(data).map((r) => r.op)).toEqual(['session']);
  });

  it('answers bad HTTP requests with a clear error and changes nothing', async () => {
    const data = freshDir('data');
    const orchestrator = await startOrchestratorProcess({ token: TOKEN, data });
    const client = api(orchestrator);
    const url = `${orchestrator.url}/api/sessions`;
    expect(await post(url, '[1]')).toMatchObject({ status: 400, body: { error: { code: 'INVALID_BODY' } } });
    const { session_id } = await client.createSession();

    const cases: Array<[unknown, number, string, RegExp]> = [
      ['{"message": ', 400, 'INVALID_BODY', /body must be \{"message": "…"\}/],
      [{}, 400, 'INVALID_BODY', /message/],
      [{ message: '   ' }, 400, 'INVALID_BODY', /must not be empty/],
      [{ message: 'hi', extra: 1 }, 400, 'INVALID_BODY', /extra/],
      [{ message: 'x'.repeat(10_001) }, 400, 'INVALID_BODY', /10000/],
      [{ message: 'hello' }, 503, 'NO_AGENT', /no agent is connected/],
    ];
    for (const [body, status, code, message] of cases) {
      const answer = await client.send(session_id, body);
      expect(answer.status).toBe(status);
      expect(answer.body.error.code).toBe(code);
      expect(answer.body.error.message).toMatch(message);
    }
    expect(await client.send('ses_nope', { message: 'hello' })).toMatchObject({
      status: 404,
      body: { error: { code: 'UNKNOWN_SESSION', message: 'no session ses_nope' } },
    });
    expect((await post(`${url}/${session_id}/messages`, 'x'.repeat(70_000))).status).toBe(413);
    expect((await http(`${url}/ses_nope`)).status).toBe(404);
    expect((await http(`${orchestrator.url}/nope`)).body.error.code).toBe('NOT_FOUND');
    expect((await client.session(session_id)).interactions).toEqual([]);
    expect(journal(data).map((r) => r.op)).toEqual(['session']);
  });

  it('survives a restart mid-answer (the agent reconnects, the interaction ends, no request completes twice) and a stopped agent errs rather than goes silent', async () => {
    const logs = freshDir('study');
    const relay = await startServe(['--headless-host', '--logs', logs], work);
    const data = freshDir('data');
    const orchestrator = await startOrchestratorProcess({ token: TOKEN, data });
    const runtime = startRuntimeProcess({
      syncUrl: orchestrator.syncUrl,
      token: TOKEN,
      relayUrl: relay.url,
      episodes: freshDir('ep'),
    });
    const client = api(orchestrator);
    const agent = await connectedAgent(orchestrator);

    const first = await client.createSession();
    const warmUp = await client.send(first.session_id, { message: ORBITAL_IMAX_PAIR.text });
    expect((await client.ended(first.session_id, warmUp.body.request_id)).state).toBe('complete');

    // With the relay frozen, the next answer cannot finish: it is certainly in flight when the orchestrator dies.
    relay.child.kill('SIGSTOP');
    const second = await client.createSession();
    const inFlight = await client.send(second.session_id, { message: 'Second Helpings on Monday evening, one adult' });
    expect(inFlight.status).toBe(202);
    const busy = await client.send(second.session_id, { message: 'and another one' });
    expect(busy).toMatchObject({ status: 409, body: { error: { code: 'SESSION_BUSY' } } });
    const before = await client.session(first.session_id);

    orchestrator.child.kill('SIGKILL');
    await orchestrator.exited;
    const restarted = await startOrchestratorProcess({ token: TOKEN, data, port: orchestrator.port });
    const again = api(restarted);
    expect(await again.session(first.session_id)).toEqual(before);
    const waiting = (await again.session(second.session_id)).interactions;
    expect(waiting.map((i) => i.request_id)).toEqual([inFlight.body.request_id]);
    expect((await connectedAgent(restarted)).agent_id).toBe(agent.agent_id);

    relay.child.kill('SIGCONT');
    const ended: Interaction = await again.ended(second.session_id, inFlight.body.request_id);
    expect(['complete', 'error']).toContain(ended.state);
    if (ended.state === 'complete') expect(ended.response).toMatch(/Second Helpings/);
    else expect(ended.error).toBeTruthy();
    expect(await again.session(first.session_id)).toEqual(before);
    const ends = endsOnce(journal(data));
    expect([...ends.keys()].sort()).toEqual([warmUp.body.request_id, inFlight.body.request_id].sort());

    // Stopped in the middle of an answer, the agent ends it with an error rather than silence.
    relay.child.kill('SIGSTOP');
    const last = await again.send(second.session_id, { message: 'one more for Orbital Drift tomorrow' });
    expect(last.status).toBe(202);
    runtime.child.kill('SIGTERM');
    const stopped = await again.ended(second.session_id, last.body.request_id);
    expect(stopped).toMatchObject({ state: 'error', error: 'the agent stopped before it finished this request' });
    relay.child.kill('SIGCONT');
  });
});
