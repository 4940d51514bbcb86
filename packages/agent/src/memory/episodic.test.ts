import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentSessionIdSchema } from './episode.ts';
import { DEFAULT_EPISODE_DIR, EpisodicLog, episodePath, newAgentSessionId } from './episodic.ts';
import { parseEpisodes, readEpisodes } from './read-episodes.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'usher-episodes-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const fixedNow = () => new Date('2026-11-21T10:15:30.123Z');

/** One plan, one tool call, its outcome and a note: the lineage a runtime writes per step. */
function writeStep(log: EpisodicLog): void {
  const plan = log.plan({
    goal: 'book 2 seats',
    stage: 'seat',
    remainingSteps: ['select C6', 'select C7'],
    confidence: 0.7,
  });
  const action = log.action({
    planId: plan.planId,
    type: 'tool.call',
    reason: 'C6 and C7 are the free pair nearest the center',
    payload: { toolName: 'select', params: { itemId: 'C6' } },
    stage: 'seat',
    fingerprint: 'seat',
  });
  log.outcome({ actionId: action.actionId, ok: false, code: 'TOOL_EXECUTION_FAILED', replan: true, detail: 'taken' });
  log.note({ text: 'participant asked for the back rows', planId: plan.planId });
}

describe('EpisodicLog on disk', () => {
  it('writes linked, validated records that read back the same', async () => {
    const log = new EpisodicLog({ dir, agentSessionId: 'a-1', sessionId: 's-20261121-001', now: fixedNow });
    writeStep(log);
    await log.close();
    expect(log.path).toBe(join(dir, 'a-1.episodes.jsonl'));
    const read = readEpisodes(join(dir, 'a-1.episodes.jsonl'));
    expect(read).toEqual({ records: log.records, problems: [], truncated: false });
    expect(read.records.map((r) => [r.seq, r.kind])).toEqual([
      [0, 'plan'],
      [1, 'action'],
      [2, 'outcome'],
      [3, 'note'],
    ]);
    const [plan, action, outcome] = read.records;
    expect(action).toMatchObject({ planId: plan?.kind === 'plan' ? plan.planId : '' });
    expect(outcome).toMatchObject({ actionId: 'act-1', planId: 'plan-0', ok: false, code: 'TOOL_EXECUTION_FAILED' });
    expect(outcome?.sessionId).toBe('s-20261121-001');
    expect(outcome?.timestamp).toBe('2026-11-21T10:15:30.123Z');
  });

  it('has every record on disk before close, as a crash would leave it', async () => {
    const log = new EpisodicLog({ dir, agentSessionId: 'a-2' });
    writeStep(log);
    const read = readEpisodes(join(dir, 'a-2.episodes.jsonl'));
    expect(read.records).toHaveLength(4);
    expect(read.problems).toEqual([]);
    await log.close();
  });

  it('reports a truncated last line and keeps the records before it', async () => {
    const log = new EpisodicLog({ dir, agentSessionId: 'a-3' });
    writeStep(log);
    await log.close();
    const path = join(dir, 'a-3.episodes.jsonl');
    appendFileSync(path, '{"seq":4,"timestamp":"2026-11-21T10:');
    const read = readEpisodes(path);
    expect(read.truncated).toBe(true);
    expect(read.records).toHaveLength(4);
    expect(read.problems).toEqual([{ line: 5, message: expect.stringContaining('truncated') }]);
  });

  it('reports a bad line and a seq gap in the middle and reads on', () => {
    const good = (seq: number) =>
      JSON.stringify({ seq, timestamp: '2026-11-21T10:00:00.000Z', sessionId: null, kind: 'note', text: 'n' });
    const read = parseEpisodes(`${good(0)}\nnot json\n{"seq":1,"kind":"plan"}\n${good(2)}\n`);
    expect(read.truncated).toBe(false);
    expect(read.records.map((r) => r.seq)).toEqual([0, 2]);
    expect(read.problems.map((p) => p.line)).toEqual([2, 3, 4]);
    expect(read.problems[2]?.message).toBe('seq 2 where 1 was expected');
  });

  it('creates the file exclusively, so a session id is never appended to twice', async () => {
    await new EpisodicLog({ dir, agentSessionId: 'a-4' }).close();
    expect(() => new EpisodicLog({ dir, agentSessionId: 'a-4' })).toThrow(/EEXIST/);
  });
});

describe('EpisodicLog checks before writing', () => {
  it('refuses broken links and invalid records and writes nothing for them', async () => {
    const log = new EpisodicLog({ dir, agentSessionId: 'a-5' });
    const path = join(dir, 'a-5.episodes.jsonl');
    const plan = log.plan({ goal: 'book', stage: null, remainingSteps: [], confidence: 1 });
    const before = readFileSync(path, 'utf8');
    const call = { type: 'tool.call', payload: {}, stage: null, reason: 'why' } as const;
    expect(() => log.action({ ...call, planId: 'plan-9' })).toThrow(/unknown plan "plan-9"/);
    expect(() => log.action({ ...call, planId: plan.planId, reason: '  ' })).toThrow(/reason/);
    expect(() => log.outcome({ actionId: 'act-9', ok: true, replan: false })).toThrow(/unknown action/);
    expect(() => log.plan({ goal: 'x', stage: null, remainingSteps: [], confidence: 2 })).toThrow(/confidence/);
    expect(readFileSync(path, 'utf8')).toBe(before);
    const action = log.action({ ...call, planId: plan.planId });
    log.outcome({ actionId: action.actionId, ok: true, replan: false });
    expect(() => log.outcome({ actionId: action.actionId, ok: true, replan: false })).toThrow(/already has an outcome/);
    expect(log.records.map((r) => r.seq)).toEqual([0, 1, 2]);
    const closing = log.close();
    // Refused at once, before the flush is done.
    expect(() => log.note({ text: 'late' })).toThrow(/closed/);
    await closing;
    expect(() => log.note({ text: 'later' })).toThrow(/closed/);
    expect(readEpisodes(path).records).toHaveLength(3);
  });
});

describe('episode file paths', () => {
  it.each(['../escape', 'a/b', 'a\\b', '.hidden', '', 'x'.repeat(129), 'a b', 'a\u0000b'])(
    'refuses the unsafe agent session id %j and creates no file',
    (id) => {
      expect(() => episodePath(dir, id)).toThrow(/invalid agent session id/);
      expect(() => new EpisodicLog({ dir: join(dir, 'logs'), agentSessionId: id })).toThrow(/invalid agent session id/);
      expect(() => new EpisodicLog({ dir: null, agentSessionId: id })).toThrow(/invalid agent session id/);
      expect(readdirSync(dir)).toEqual([]);
    },
  );

  it('makes fresh ids that are safe, sortable by time and distinct', () => {
    const at = new Date('2026-11-21T10:15:30.123Z');
    const a = newAgentSessionId(at);
    expect(a).toMatch(/^a-20261121T101530Z-[0-9a-f]{6}$/);
    expect(AgentSessionIdSchema.safeParse(a).success).toBe(true);
    expect(newAgentSessionId(at)).not.toBe(a);
  });

  it('puts files beside the study logs by default', () => {
    expect(DEFAULT_EPISODE_DIR).toBe(join('logs', 'agent'));
  });
});

describe('EpisodicLog in memory', () => {
  it('keeps records without touching the disk', async () => {
    const log = new EpisodicLog({ dir: null, agentSessionId: 'mem-1' });
    writeStep(log);
    log.sessionId = 's-20261121-002';
    log.note({ text: 'study session started' });
    await expect(log.close()).resolves.toBeUndefined();
    expect(() => log.note({ text: 'late' })).toThrow(/closed/);
    expect(log.path).toBeNull();
    expect(log.records).toHaveLength(5);
    expect(log.records.at(-1)?.sessionId).toBe('s-20261121-002');
    expect(existsSync(join(DEFAULT_EPISODE_DIR, 'mem-1.episodes.jsonl'))).toBe(false);
  });
});
