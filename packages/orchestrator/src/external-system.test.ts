import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChatMessage, ChatMessageSchema, type SyncAgentEvent } from '@usher/protocol/sync';
import { afterEach, describe, expect, it } from 'vitest';
import { ExternalSystem, type SyncRequestError } from './external-system.ts';

const dirs: string[] = [];
const systems: ExternalSystem[] = [];
afterEach(() => {
  for (const system of systems.splice(0)) system.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Harness {
  system: ExternalSystem;
  dir: string;
  logs: string[];
  clock: { ms: number };
}

function open(
  dir = mkdtempSync(join(tmpdir(), 'usher-sync-')),
  clock = { ms: Date.parse('2026-11-21T10:00:00Z') },
): Harness {
  if (!dirs.includes(dir)) dirs.push(dir);
  const logs: string[] = [];
  const system = ExternalSystem.open({
    dataDir: dir,
    log: (line) => logs.push(line),
    agentTimeoutMs: 30_000,
    now: () => new Date(clock.ms),
  });
  systems.push(system);
  return { system, dir, logs, clock };
}

/** An agent connection whose frames to the agent are collected. */
function agent(system: ExternalSystem, agentId = 'agent_a', requests: string[] = []) {
  const sent: ChatMessage[] = [];
  const closed: number[] = [];
  const connection = system.connect({
    send: (text) => sent.push(ChatMessageSchema.parse(JSON.parse(text))),
    close: (code) => closed.push(code),
  });
  const say = (event: SyncAgentEvent) => connection.receive(JSON.stringify(event));
  say({ event_type: 'agent_ready', data: { agent_id: agentId, agent: 'test', version: '1', requests } });
  return { connection, sent, closed, say };
}

const added = (session: string, request: string | undefined, messageId: string, content: string): SyncAgentEvent => ({
  session_id: session,
  event_type: 'message_added',
  data: {
    acp_thread_id: 'thr_1',
    message_id: messageId,
    role: 'assistant',
    content,
    timestamp: 1_790_000_000,
    ...(request && { request_id: request }),
  },
});
const completed = (session: string, request: string, messageId: string): SyncAgentEvent => ({
  session_id: session,
  event_type: 'message_completed',
  data: { acp_thread_id: 'thr_1', message_id: messageId, request_id: request },
});
const created = (session: string, type: 'context_created' | 'thread_created' = 'context_created'): SyncAgentEvent => ({
  session_id: session,
  event_type: type,
  data: { acp_thread_id: 'thr_1', helix_session_id: session },
});

function journalLines(dir: string): number {
  return readFileSync(join(dir, 'journal.jsonl'), 'utf8').trim().split('\n').length;
}

describe('ExternalSystem: the spec\'s "External System Side"', () => {
  it('stores the mapping on context_created, sends it with follow-ups, streams and completes', () => {
    const { system } = open();
    const a = agent(system);
    const { session_id } = system.createSession();
    const first = system.sendMessage(session_id, 'two adults for Orbital Drift');
    expect(a.sent[0]?.data).toEqual({
      helix_session_id: session_id,
      acp_thread_id: null,
      message: 'two adults for Orbital Drift',
      request_id: first.request_id,
    });
    a.say(created(session_id));
    expect(system.view(session_id)?.acp_thread_id).toBe('thr_1');
    expect(system.view(session_id)?.interactions[0]?.state).toBe('waiting');

    a.say(added(session_id, undefined, 'm1', 'Understood'));
    a.say(added(session_id, undefined, 'm1', 'Understood\nBooked'));
    expect(system.view(session_id)?.interactions[0]).toMatchObject({
      state: 'waiting',
      response: 'Understood\nBooked',
      message_id: 'm1',
      updates: 2,
    });
    a.say(completed(session_id, first.request_id, 'm1'));
    expect(system.view(session_id)?.interactions[0]).toMatchObject({
      state: 'complete',
      finished_at: expect.any(String),
    });

    const second = system.sendMessage(session_id, 'make it IMAX');
    expect(a.sent[1]?.data).toMatchObject({ acp_thread_id: 'thr_1', request_id: second.request_id });
  });

  it('accepts thread_created, the later upstream name', () => {
    const { system } = open();
    const a = agent(system);
    const { session_id } = system.createSession();
    system.sendMessage(session_id, 'hello');
    a.say(created(session_id, 'thread_created'));
    expect(system.view(session_id)?.acp_thread_id).toBe('thr_1');
  });

  it('never completes a request twice, an unknown one, or against another session or message', () => {
    const { system, dir, logs } = open();
    const a = agent(system);
    const s1 = system.createSession().session_id;
    const s2 = system.createSession().session_id;
    const r1 = system.sendMessage(s1, 'one').request_id;
    const r2 = system.sendMessage(s2, 'two').request_id;
    a.say(added(s1, r1, 'm1', 'answer one'));
    const before = journalLines(dir);

    a.say(completed(s1, 'req_unknown', 'm1'));
    a.say(completed(s2, r1, 'm1')); // r1 is not s2's
    a.say(completed(s1, r1, 'm_other')); // r1 is answered by m1
    a.say(added(s2, r2, 'm1', 'stolen')); // m1 answers r1
    a.say(added(s2, undefined, 'm1', 'stolen')); // by message id: r1, not in s2
    expect(journalLines(dir)).toBe(before);
    expect(system.view(s1)?.interactions[0]?.state).toBe('waiting');
    expect(system.view(s2)?.interactions[0]).toMatchObject({ state: 'waiting', response: '' });

    a.say(completed(s1, r1, 'm1'));
    a.say(completed(s1, r1, 'm1'));
    a.say({ session_id: s1, event_type: 'chat_response_error', data: { request_id: r1, message: 'late' } });
    expect(system.view(s1)?.interactions[0]).toMatchObject({ state: 'complete', error: null });
    expect(journalLines(dir)).toBe(before + 1);
    expect(logs.filter((l) => l.includes('ignored')).length).toBeGreaterThanOrEqual(7);
  });

  it('ends an interaction in error on chat_response_error, and ignores one without a request id', () => {
    const { system, dir } = open();
    const a = agent(system);
    const { session_id } = system.createSession();
    const { request_id } = system.sendMessage(session_id, 'hello');
    const before = journalLines(dir);
    a.say({ session_id, event_type: 'chat_response_error', data: { message: 'no request id' } });
    expect(journalLines(dir)).toBe(before);
    a.say({ session_id, event_type: 'chat_response_error', data: { request_id, message: 'the run failed' } });
    expect(system.view(session_id)?.interactions[0]).toMatchObject({ state: 'error', error: 'the run failed' });
  });

  it('ignores frames that are not JSON, of unknown type, malformed, or sent before agent_ready', () => {
    const { system, dir, logs } = open();
    const a = agent(system);
    const { session_id } = system.createSession();
    const { request_id } = system.sendMessage(session_id, 'hello');
    const stranger = system.connect({ send: () => {}, close: () => {} });
    const before = journalLines(dir);
    a.connection.receive('not json');
    a.connection.receive(JSON.stringify({ event_type: 'mystery', data: {} }));
    a.connection.receive(JSON.stringify({ session_id, event_type: 'message_completed', data: { request_id } }));
    stranger.receive(JSON.stringify(completed(session_id, request_id, 'm1')));
    expect(journalLines(dir)).toBe(before);
    expect(system.view(session_id)?.interactions[0]?.state).toBe('waiting');
    expect(logs.join('\n')).toMatch(
      /not JSON[\s\S]*unknown event_type "mystery"[\s\S]*malformed message_completed[\s\S]*before agent_ready/,
    );
  });

  it('refuses a message for an unknown session, a busy session or without an agent, changing nothing', () => {
    const { system, dir } = open();
    const { session_id } = system.createSession();
    const refused = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return (err as SyncRequestError).code;
      }
      return 'accepted';
    };
    expect(refused(() => system.sendMessage(session_id, 'hello'))).toBe('NO_AGENT');
    agent(system);
    expect(refused(() => system.sendMessage('ses_nope', 'hello'))).toBe('UNKNOWN_SESSION');
    expect(refused(() => system.sendMessage(session_id, '   '))).toBe('INVALID_MESSAGE');
    const before = journalLines(dir);
    expect(refused(() => system.sendMessage(session_id, 'hello'))).toBe('accepted');
    expect(refused(() => system.sendMessage(session_id, 'again'))).toBe('SESSION_BUSY');
    expect(journalLines(dir)).toBe(before + 1);
    expect(system.view(session_id)?.interactions).toHaveLength(1);
  });

  it('sends a follow-up only to the agent holding the thread', () => {
    const { system } = open();
    const a = agent(system, 'agent_a');
    const { session_id } = system.createSession();
    const { request_id } = system.sendMessage(session_id, 'hello');
    a.say(created(session_id));
    a.say(added(session_id, request_id, 'm1', 'hi'));
    a.say(completed(session_id, request_id, 'm1'));
    a.connection.closed();
    const b = agent(system, 'agent_b');
    expect(() => system.sendMessage(session_id, 'again')).toThrow(/agent_a\) is not connected/);
    b.say(created(session_id)); // not the holder: ignored
    expect(system.view(session_id)?.agent_id).toBe('agent_a');

    // A session whose first answer was lost before it got a thread may go to another agent.
    const lonely = system.createSession().session_id;
    b.connection.closed();
    const c = agent(system, 'agent_c');
    system.sendMessage(lonely, 'hello');
    c.connection.closed();
    agent(system, 'agent_c').connection.closed(); // back without the request, so it is lost; gone again
    expect(system.view(lonely)?.interactions[0]?.state).toBe('error');
    const d = agent(system, 'agent_d');
    expect(system.sendMessage(lonely, 'hello again').agent_id).toBe('agent_d');
    expect(d.sent[0]?.data).toMatchObject({ helix_session_id: lonely, acp_thread_id: null });
  });

  it('ends what an agent no longer answers when it comes back, and keeps what it still answers', () => {
    const { system } = open();
    const a = agent(system);
    const s1 = system.createSession().session_id;
    const s2 = system.createSession().session_id;
    const kept = system.sendMessage(s1, 'one').request_id;
    system.sendMessage(s2, 'two');
    a.connection.closed();
    const again = agent(system, 'agent_a', [kept]);
    expect(system.view(s1)?.interactions[0]?.state).toBe('waiting');
    expect(system.view(s2)?.interactions[0]).toMatchObject({ state: 'error', error: expect.stringMatching(/lost/) });
    again.say(added(s1, kept, 'm1', 'done'));
    again.say(completed(s1, kept, 'm1'));
    expect(system.view(s1)?.interactions[0]?.state).toBe('complete');
  });

  it('replaces an older connection of the same agent', () => {
    const { system } = open();
    const old = agent(system, 'agent_a');
    agent(system, 'agent_a');
    expect(old.closed).toEqual([4001]);
    old.connection.closed();
    expect(system.agents().map((a) => a.agent_id)).toEqual(['agent_a']);
  });

  it('ends in error what waits on an agent gone longer than the timeout, also across a restart', () => {
    const h = open();
    const a = agent(h.system);
    const { session_id } = h.system.createSession();
    h.system.sendMessage(session_id, 'hello');
    a.connection.closed();
    h.clock.ms += 29_000;
    h.system.sweep();
    expect(h.system.view(session_id)?.interactions[0]?.state).toBe('waiting');

    // A restart: the agent's absence counts from the new start.
    h.system.close();
    systems.splice(systems.indexOf(h.system), 1);
    const restarted = open(h.dir, h.clock);
    h.clock.ms += 29_000;
    restarted.system.sweep();
    expect(restarted.system.view(session_id)?.interactions[0]?.state).toBe('waiting');
    h.clock.ms += 2_000;
    restarted.system.sweep();
    expect(restarted.system.view(session_id)?.interactions[0]).toMatchObject({
      state: 'error',
      error: expect.stringMatching(/disconnected for more than 30 s/),
    });
  });
});
