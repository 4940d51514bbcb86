import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { checkBooking } from '@usher/booking';
import { loadStudyFile, StudyRegistry } from '@usher/study';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { exportStudy } from './export.ts';
import { readExportCsv, readExportTable } from './read.ts';
import { type SyntheticTruth, writeSyntheticStudy } from './testing/synthetic.ts';

const DEMO = loadStudyFile(new URL('../../../studies/demo.study.yaml', import.meta.url).pathname);

const dirs: string[] = [];
function workDir() {
  const dir = mkdtempSync(join(tmpdir(), 'usher-export-'));
  dirs.push(dir);
  return { dir, logsDir: join(dir, 'logs'), registryPath: join(dir, 'registry.sqlite'), outDir: join(dir, 'out') };
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Each exported participant task against what the synthetic run truly did. */
function expectTruth(rows: Array<Record<string, unknown>>, truths: SyntheticTruth[]) {
  expect(rows).toHaveLength(truths.length);
  const byKey = new Map(rows.map((r) => [`${r.participant_id} ${r.task_id}`, r]));
  expect(byKey.size).toBe(truths.length);
  for (const truth of truths) {
    const row = byKey.get(`${truth.participantId} ${truth.taskId}`);
    const task = DEMO.tasks.find((t) => t.id === truth.taskId);
    if (!row || !task) throw new Error(`no row for ${truth.participantId} ${truth.taskId}`);
    const check = truth.booking && checkBooking(task.world, truth.booking, { text: '', ...task.success });
    expect({
      key: `${truth.participantId} ${truth.taskId}`,
      success: row.success,
      booked: row.booked,
      outcome: row.outcome,
      overrides: Number(row.overrides),
      participant_actions: Number(row.participant_actions),
      agent_actions: Number(row.agent_actions),
      failed_wish: row.failed_wish,
      condition_id: row.condition_id,
    }).toEqual({
      key: `${truth.participantId} ${truth.taskId}`,
      success: check?.satisfied ?? false,
      booked: truth.booking !== null,
      outcome: truth.outcome,
      overrides: truth.overrides,
      participant_actions: truth.participantActions,
      agent_actions: truth.agentActions,
      failed_wish: check?.hard.find((h) => !h.ok)?.constraint.kind ?? null,
      condition_id: truth.conditionId,
    });
  }
}

/**
 * events.csv: the rows and columns of events.parquet in the same order; every payload as it is,
 * except a state.updated's, without the page's lists and the tools' schemas (README "Data dictionary").
 */
async function expectEventsCsv(outDir: string) {
  const csv = await readExportCsv(join(outDir, 'events.csv'));
  const parquet = await readExportTable(join(outDir, 'events.parquet'));
  expect(csv).toHaveLength(parquet.length);
  expect(Object.keys(csv[0] ?? {})).toEqual(Object.keys(parquet[0] ?? {}));
  const key = (r: Record<string, unknown>) => `${r.session_id} ${r.event_index}`;
  expect(csv.map(key)).toEqual(parquet.map(key));
  // Each row's payload in the CSV against what it should be, gathered first: one assertion, not thousands.
  const wrong: string[] = [];
  let states = 0;
  csv.forEach((row, i) => {
    const whole = parquet[i] ?? {};
    if (row.type === 'state.updated') {
      const { toolSchema, ...rest } = JSON.parse(String(whole.payload));
      const { items, visibleItems, ...uiSpec } = rest.uiSpec ?? {};
      if (toolSchema === undefined) wrong.push(`${key(row)}: no toolSchema in the whole payload`);
      // After the booking is submitted the page has no uiSpec: nothing of it to leave out.
      if (rest.uiSpec !== null) {
        if (items === undefined || visibleItems === undefined) wrong.push(`${key(row)}: no lists in the whole payload`);
        rest.uiSpec = uiSpec;
        states += 1;
      }
      // The same members, maybe in another order (JSON objects have none).
      if (!isDeepStrictEqual(JSON.parse(String(row.payload)), rest)) wrong.push(`${key(row)}: ${row.payload}`);
    } else if (row.payload !== whole.payload) {
      wrong.push(`${key(row)}: ${row.payload}`);
    }
    if (row.payload_bytes !== String(whole.payload_bytes))
      wrong.push(`${key(row)}: payload_bytes ${row.payload_bytes}`);
  });
  expect(wrong.slice(0, 5)).toEqual([]);
  expect(states).toBeGreaterThan(0);
}

/**
 * The collaboration table against the synthetic run's truth (its actions and overrides, which are
 * the agent's undone selections), and the conditions summary against the participant tasks.
 */
async function expectCollaboration(
  outDir: string,
  tasks: Array<Record<string, unknown>>,
  truths: SyntheticTruth[],
): Promise<void> {
  const rows = await readExportTable(join(outDir, 'collaboration.parquet'));
  expect(rows).toHaveLength(truths.length);
  const byKey = new Map(rows.map((r) => [`${r.participant_id} ${r.task_id}`, r]));
  for (const truth of truths) {
    const row = byKey.get(`${truth.participantId} ${truth.taskId}`) as Record<string, unknown>;
    const started = truth.outcome !== 'not-started';
    const condition = DEMO.conditions.find((c) => c.id === truth.conditionId);
    const withAgent = condition?.agent !== 'none';
    const stepApproval = condition?.guard === 'each-step';
    const actions = truth.agentActions + truth.participantActions;
    expect({
      key: `${truth.participantId} ${truth.taskId}`,
      agent_actions: Number(row.agent_actions),
      actions: row.actions === null ? null : Number(row.actions),
      agent_share: row.agent_share,
      undone: row.undone_agent_selections === null ? null : Number(row.undone_agent_selections),
      pauses: row.pauses === null ? null : Number(row.pauses),
      rejected: row.rejected_proposals === null ? null : Number(row.rejected_proposals),
      mistakes: row.mistakes_caught,
      pilot: row.pilot,
    }).toEqual({
      key: `${truth.participantId} ${truth.taskId}`,
      agent_actions: truth.agentActions,
      actions: started ? actions : null,
      agent_share: started && actions > 0 ? Math.round((truth.agentActions / actions) * 1000) / 1000 : null,
      // Empty where it does not apply: no agent (alone), or never started.
      undone: started && withAgent ? truth.overrides : null,
      pauses: started && withAgent ? 0 : null,
      // Step approval's rejections apply only where its guard is each-step (none in a synthetic run).
      rejected: started && stepApproval ? 0 : null,
      mistakes: null,
      pilot: false,
    });
  }
  const conditions = await readExportTable(join(outDir, 'conditions.parquet'));
  expect(conditions.map((c) => c.condition_id)).toEqual(DEMO.conditions.map((c) => c.id));
  for (const c of conditions) {
    const mine = tasks.filter((t) => t.condition_id === c.condition_id);
    const started = mine.filter((t) => Number(t.sessions) > 0);
    expect({
      participants: Number(c.participants),
      tasks_started: Number(c.tasks_started),
      successes: Number(c.successes),
      undone: c.undone_agent_selections === null ? null : Number(c.undone_agent_selections),
    }).toEqual({
      participants: new Set(mine.map((t) => t.participant_id)).size,
      tasks_started: started.length,
      successes: mine.filter((t) => t.success === true).length,
      undone:
        c.condition_id === 'alone'
          ? null
          : truths.filter((t) => t.conditionId === c.condition_id).reduce((n, t) => n + t.overrides, 0),
    });
  }
}

describe('exportStudy', () => {
  // 100 participants have every shape of the 1,000 the bench exports (npm run bench -- export) at a tenth of the cost.
  it('exports a synthetic study: every participant task as it happened', async () => {
    const w = workDir();
    const truths = writeSyntheticStudy({
      study: DEMO,
      participants: 100,
      logsDir: w.logsDir,
      registryPath: w.registryPath,
    });
    const result = await exportStudy({ study: DEMO, ...w });
    expect(result.problemCount).toBe(0);
    const rows = await readExportTable(join(w.outDir, 'participant_tasks.parquet'));
    expectTruth(rows, truths);
    // The synthetic run has every outcome, both verdicts and overrides, so each comparison could fail.
    expect(new Set(rows.map((r) => r.outcome))).toEqual(new Set(['booked', 'gave-up', 'unfinished', 'not-started']));
    expect(new Set(rows.filter((r) => r.booked).map((r) => r.success))).toEqual(new Set([true, false]));
    expect(truths.some((t) => t.overrides > 1)).toBe(true);
    const lines = readdirSync(w.logsDir).reduce(
      (n, f) => n + readFileSync(join(w.logsDir, f), 'utf8').split('\n').filter(Boolean).length,
      0,
    );
    expect(result.tables.find((t) => t.name === 'events')?.rows).toBe(lines);
    expect(result.tables.find((t) => t.name === 'participants')?.rows).toBe(100);
    expect(result.logFiles).toBe(readdirSync(w.logsDir).length);
    await expectEventsCsv(w.outDir);
    await expectCollaboration(w.outDir, rows, truths);
  }, 120_000);

  it('leaves hostile lines out, reports each, and exports the rest', async () => {
    const w = workDir();
    const truths = writeSyntheticStudy({
      study: DEMO,
      participants: 6,
      logsDir: w.logsDir,
      registryPath: w.registryPath,
      seed: 7,
    });
    const files = readdirSync(w.logsDir).sort();
    const [first, second, third] = files.map((f) => join(w.logsDir, f));
    if (!first || !second || !third) throw new Error('the synthetic study wrote too few logs');
    const record = (eventIndex: number, payload: string) =>
      `{"sessionId":"s-x","eventIndex":${eventIndex},"timestamp":"2026-11-21T10:00:00.000Z","direction":"in","type":"odd","payload":${payload}}`;
    // In the middle of one log: lines that are not records, and records no reader expects.
    const text = readFileSync(first, 'utf8').split('\n');
    text.splice(
      3,
      0,
      'not JSON at all',
      '[1, 2, 3]',
      '{"sessionId": 5, "eventIndex": "x"}',
      record(900, `{"deep":${'['.repeat(50_000)}${']'.repeat(50_000)}}`),
      record(901, JSON.stringify({ big: 'x'.repeat(3 * 1024 * 1024) })),
      record(902, '{"x":1}').replace('2026-11-21T10:00:00.000Z', 'yesterday'),
    );
    writeFileSync(first, text.join('\n'));
    // A torn last line: a record cut short by a crash.
    appendFileSync(second, record(999, '{"text":"cut sh').slice(0, 60));
    // Bytes that are not UTF-8, and a line of NULs.
    appendFileSync(
      third,
      Buffer.concat([
        Buffer.from(record(950, '{"t":"'), 'utf8'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}\n\u0000\u0000\n'),
      ]),
    );
    writeFileSync(join(w.logsDir, 'notes.txt'), 'not a log');
    symlinkSync('/etc/hostname', join(w.logsDir, 'link.jsonl'));

    const result = await exportStudy({ study: DEMO, ...w });
    const problems = result.problems.map((p) => [p.file, p.line, p.problem]);
    const name = (path: string) => path.slice(w.logsDir.length + 1);
    expect(problems).toEqual(
      expect.arrayContaining([
        [name(first), 4, 'not JSON'],
        [name(first), 5, 'not a JSON object'],
        [name(first), 6, 'missing sessionId, eventIndex or type'],
        [name(first), 9, 'no valid timestamp'],
        [name(second), readFileSync(second, 'utf8').split('\n').length, 'not JSON (a torn last line)'],
        [name(third), readFileSync(third, 'utf8').split('\n').length - 2, 'not UTF-8 text'],
        [name(third), readFileSync(third, 'utf8').split('\n').length - 1, 'not JSON'],
        ['link.jsonl', 0, 'not a regular file'],
      ]),
    );
    expect(result.problemCount).toBe(8);
    const logProblems = await readExportTable(join(w.outDir, 'log_problems.parquet'));
    expect(logProblems).toHaveLength(8);
    // The deep and the huge payloads are events like any other; the huge one is too long for a cell.
    const events = await readExportTable(join(w.outDir, 'events.parquet'));
    const deep = events.find((e) => e.event_index === '900');
    const huge = events.find((e) => e.event_index === '901');
    expect(String(deep?.payload)).toMatch(/^\{"deep":\[\[\[/);
    expect(huge).toMatchObject({ payload: null, source_file: name(first) });
    expect(Number(huge?.payload_bytes)).toBeGreaterThan(3 * 1024 * 1024);
    expectTruth(await readExportTable(join(w.outDir, 'participant_tasks.parquet')), truths);
  }, 60_000);

  it('reports the arrivals the registry removed while at consent, per condition, beside those still there', async () => {
    const w = workDir();
    writeSyntheticStudy({ study: DEMO, participants: 2, logsDir: w.logsDir, registryPath: w.registryPath });
    const registry = new StudyRegistry(w.registryPath);
    const day = new Date('2026-11-20T09:00:00Z');
    const left = ['L1', 'L2', 'L3'].map(
      (id) => registry.admit(DEMO, { recruitment: { participant: id }, now: day }).participant,
    );
    registry.expireArrivals(DEMO.id, day);
    registry.admit(DEMO, { recruitment: { participant: 'still-reading' }, now: new Date('2026-11-21T12:00:00Z') });
    registry.close();

    const result = await exportStudy({ study: DEMO, ...w });
    const expired = await readExportTable(join(w.outDir, 'expired_arrivals.parquet'));
    const byCondition = new Map<string, number>();
    for (const p of left)
      byCondition.set(String(p.plan.conditionId), (byCondition.get(String(p.plan.conditionId)) ?? 0) + 1);
    expect(expired.map((r) => [r.study_id, r.condition_id, Number(r.arrivals)])).toEqual(
      [...byCondition].sort().map(([condition, n]) => [DEMO.id, condition, n]),
    );
    expect(result.tables.find((t) => t.name === 'expired_arrivals')?.rows).toBe(byCondition.size);
    // Whoever is still at consent is a participant row, as before.
    const participants = await readExportTable(join(w.outDir, 'participants.parquet'));
    expect(participants.filter((p) => p.status === 'consent').map((p) => p.external_id)).toEqual(['still-reading']);
    expect(JSON.parse(readFileSync(join(w.outDir, 'export.json'), 'utf8')).expiredArrivals).toBe(3);
  }, 60_000);

  it('writes an empty expired_arrivals table for a registry made before arrivals expired', async () => {
    const w = workDir();
    writeSyntheticStudy({ study: DEMO, participants: 1, logsDir: w.logsDir, registryPath: w.registryPath });
    const old = new Database(w.registryPath);
    old.exec('DROP TABLE expired_arrivals');
    old.close();
    const result = await exportStudy({ study: DEMO, ...w });
    expect(result.tables.find((t) => t.name === 'expired_arrivals')?.rows).toBe(0);
    expect(readFileSync(join(w.outDir, 'expired_arrivals.csv'), 'utf8').trim()).toBe('study_id,condition_id,arrivals');
  }, 60_000);
});

describe('what a researcher reads as it is', () => {
  it('reads no questionnaire log as a study log, and tells an experimenter’s actions from the agent’s', async () => {
    const w = workDir();
    writeSyntheticStudy({ study: DEMO, participants: 6, logsDir: w.logsDir, registryPath: w.registryPath, seed: 11 });
    // `usher serve` keeps the answers beside the study logs too.
    writeFileSync(
      join(w.logsDir, `${DEMO.id}.questionnaires.jsonl`),
      `${JSON.stringify({ participantId: 'p1', section: 'sus', answers: { 'sus-1': 4 } })}\n`,
    );
    // An experimenter takes a room over and acts through the relay: their calls carry their peer.
    const files = readdirSync(w.logsDir).filter((f) => !f.includes('questionnaires'));
    let wizardCalls = 0;
    let file = '';
    for (const f of files) {
      const lines = readFileSync(join(w.logsDir, f), 'utf8').split('\n').filter(Boolean);
      const calls = lines.filter((l) => l.includes('"type":"tool.call"') && l.includes('"peer":"agent-2"'));
      if (calls.length < 2) continue;
      file = f;
      const rewritten = lines.map((l) =>
        l === calls[0] || l === calls[1] ? l.replace('"peer":"agent-2"', '"peer":"experimenter-ada"') : l,
      );
      writeFileSync(join(w.logsDir, f), `${rewritten.join('\n')}\n`);
      wizardCalls = [calls[0], calls[1]].filter((l) => !l?.includes('"toolName":"postMessage"')).length;
      break;
    }
    expect(file).not.toBe('');

    const result = await exportStudy({ study: DEMO, ...w });
    expect(result.problemCount).toBe(0);
    const events = await readExportCsv(join(w.outDir, 'events.csv'));
    const wizard = events.filter((e) => e.actor === 'experimenter');
    expect(wizard.filter((e) => e.type === 'tool.call')).toHaveLength(2);
    // The state each of their calls caused is theirs too, not the agent's.
    expect(wizard.some((e) => e.type === 'state.updated')).toBe(true);
    const tasks = await readExportTable(join(w.outDir, 'participant_tasks.parquet'));
    const sessionId = file.replace(/\.jsonl$/, '');
    const task = tasks.find((t) => String(t.session_ids).split(' ').includes(sessionId));
    expect(Number(task?.experimenter_actions)).toBe(wizardCalls);
    expect(tasks.reduce((n, t) => n + Number(t.experimenter_actions), 0)).toBe(wizardCalls);
  }, 60_000);
});
