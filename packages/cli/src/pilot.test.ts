import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { readExportTable } from '@usher/export';
import { loadStudyFile } from '@usher/study';
import { afterAll, describe, expect, it } from 'vitest';
import { grouped, runPilot } from './pilot.ts';
import { startServe, USHER_BIN } from './test-helpers.ts';

const DEMO = new URL('../../../studies/demo.study.yaml', import.meta.url).pathname;
const study = loadStudyFile(DEMO);
const work = mkdtempSync(join(tmpdir(), 'usher-pilot-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A folder's files, each with a hash of its bytes: what "nothing changed" is checked against. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** The id the agent gives a step it proposes (step approval): random, as the agent makes it, not the pilot. */
const PROPOSAL_ID = /"proposalId":"[^"]*"/g;

/** An export's table with every timestamp, every time measured from them, and the agent's proposal ids blanked. */
async function withoutTimes(dir: string, table: string) {
  const rows = await readExportTable(join(dir, `${table}.parquet`));
  const iso = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([k, v]) => [
        k,
        /_at$|^timestamp$|(^|_)time_.*_s$/.test(k)
          ? null
          : typeof v === 'string'
            ? v.replace(iso, 'T').replace(PROPOSAL_ID, '"proposalId":"…"')
            : v,
      ]),
    ),
  );
}

describe('usher pilot', () => {
  it('runs simulated participants through every condition, marks its rows pilot, and gives the same export for the same seed', async () => {
    const lines: string[] = [];
    const runs = [join(work, 'a'), join(work, 'b')];
    for (const dir of runs) {
      const code = await runPilot(
        DEMO,
        { participants: 6, seed: 'same', pace: 'fast', dir },
        (line) => lines.push(line),
        (line) => lines.push(line),
      );
      expect(code, lines.join('\n')).toBe(0);
    }
    const [a, b] = runs.map((dir) => join(dir, 'export')) as [string, string];
    const participants = await readExportTable(join(a, 'participants.parquet'));
    expect(participants).toHaveLength(6);
    expect(participants.every((p) => p.pilot === true && p.status === 'done')).toBe(true);
    // Balanced conditions: the demo's three, two participants each.
    const per = (condition: string) => participants.filter((p) => p.condition_id === condition).length;
    expect(study.conditions.map((c) => per(c.id))).toEqual([2, 2, 2]);

    const collaboration = await readExportTable(join(a, 'collaboration.parquet'));
    expect(collaboration).toHaveLength(12);
    for (const row of collaboration) {
      expect(row.pilot).toBe(true);
      expect(row.actions).not.toBeNull();
      const condition = study.conditions.find((c) => c.id === row.condition_id);
      if (condition?.agent !== 'none') {
        // Every measure of a condition with an agent is filled; those it has no feature for are empty.
        for (const k of ['agent_share', 'interventions', 'chat_corrections', 'undone_agent_selections', 'pauses']) {
          expect(row[k], `${k} of ${row.participant_id} ${row.task_id}`).not.toBeNull();
        }
        expect(row.time_to_agent_first_action_s).not.toBeNull();
        expect(row.rejected_proposals === null).toBe(condition?.guard !== 'each-step');
        expect(row.mistakes_caught).toBeNull();
      } else {
        expect([row.agent_share, row.interventions, row.agent_questions]).toEqual([0, null, null]);
      }
    }
    const conditions = await readExportTable(join(a, 'conditions.parquet'));
    expect(conditions.map((c) => [c.condition_id, c.pilot, Number(c.participants)])).toEqual(
      study.conditions.map((c) => [c.id, true, 2]),
    );

    // The same seed, the same export, timestamps (and the agent's own ids of its proposals) aside.
    for (const table of [
      'participants',
      'participant_tasks',
      'collaboration',
      'conditions',
      'events',
      'questionnaire_answers',
    ]) {
      expect(await withoutTimes(b, table), table).toEqual(await withoutTimes(a, table));
    }
    // The report: participants per condition and order, success per task and condition, the measures.
    const report = lines.join('\n');
    expect(report).toContain('Participants per condition and order:');
    expect(report).toMatch(/imax-evening\s+autopilot\s+\d\/2/);
    expect(report).toContain('Collaboration measures per condition');
    expect(report).toContain('Errors and warnings:');
  }, 180_000);

  it('never writes into the registry or logs of a study that usher serve --study runs', async () => {
    const folder = join(work, 'lab');
    mkdirSync(folder);
    // A real study server in this folder, with its default ./data and ./logs/study, and a participant in it.
    const { url } = await startServe(['--study', DEMO], folder);
    const link = await fetch(`${url}/s/demo-01?participant=real-1`, { redirect: 'manual' });
    expect(link.status).toBe(302);
    const before = { data: snapshot(join(folder, 'data')), logs: snapshot(join(folder, 'logs')) };
    expect(Object.keys(before.data)).toContain('registry.sqlite');

    // The pilot in the same folder, by its defaults: a folder of its own.
    const pilot = await usher(['pilot', DEMO, '--participants', '2', '--seed', '7'], folder);
    expect(pilot.code, pilot.stderr + pilot.stdout).toBe(0);
    expect(existsSync(join(folder, 'pilot', 'demo-01-seed-7', 'export', 'collaboration.csv'))).toBe(true);
    // Told to use the study's own folders (or its earlier one), it refuses and writes nothing there.
    for (const dir of ['data', 'logs', join('logs', 'study'), join('pilot', 'demo-01-seed-7')]) {
      const refused = await usher(['pilot', DEMO, '--participants', '1', '--dir', dir], folder);
      expect(refused.code, dir).toBe(1);
      expect(refused.stderr).toContain('already exists');
    }
    expect({ data: snapshot(join(folder, 'data')), logs: snapshot(join(folder, 'logs')) }).toEqual(before);
  }, 120_000);

  it('reports every error and warning, the same kind once with its count', () => {
    const lines = [
      'log s-20261127-001.jsonl: error {"code":"SESSION_NOT_ACTIVE","message":"no host in room \\"r-AB1\\""}',
      'log s-20261127-007.jsonl: error {"code":"SESSION_NOT_ACTIVE","message":"no host in room \\"r-CD2\\""}',
      'server: relay: closed agent-32 from usher-own-agents: it did not read 8402484 queued bytes',
      'pilot-3: POST /step: 409 out of step',
    ];
    expect(grouped(lines)).toEqual([`${lines[0]}  (×2 like it)`, lines[2], lines[3]]);
    const many = Array.from({ length: 30 }, (_, i) => `kind ${'abcdefghijklmnopqrstuvwxyzABCD'[i]} happened`);
    expect(grouped(many)).toHaveLength(21);
    expect(grouped(many).at(-1)).toBe('… and 10 other kinds (30 in all)');
  });

  it('refuses bad flags with exit code 2', async () => {
    for (const args of [
      ['--participants', '0'],
      ['--participants', 'many'],
      ['--participants', '1001'],
      ['--pace', 'slow'],
      ['--seed', '../x'],
    ]) {
      const result = await usher(['pilot', DEMO, ...args], work);
      expect(result.code, args.join(' ')).toBe(2);
    }
  });
});

/** Runs `usher …` to completion in `cwd`. */
function usher(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [USHER_BIN, ...args], { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
