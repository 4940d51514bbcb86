import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServe, USHER_BIN } from './test-helpers.ts';

const work = mkdtempSync(join(tmpdir(), 'usher-study-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const root = new URL('../../..', import.meta.url).pathname;

/** `usher …` to completion, without any language model configured in the environment. */
const usher = (...args: string[]) =>
  spawnSync(process.execPath, [USHER_BIN, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('USHER_LLM_'))),
  });

describe('usher study check', () => {
  it('says what the shipped demo study holds', () => {
    const result = usher('study', 'check', 'studies/demo.study.yaml');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/study "demo-01"/);
    expect(result.stdout).toContain('shown as        "Booking movie tickets" (participantTitle)');
    expect(result.stdout).toMatch(
      /conditions\s+alone \(no agent\), autopilot \(autopilot, rules, asks before submitting\), step-approval \(autopilot, rules, proposes each step\)\n/,
    );
    expect(result.stdout).toMatch(
      /questionnaires\s+after each task: about-task \(5 items\); at the end: sus, last \(12 items\)/,
    );
    expect(result.stderr).not.toMatch(/warning/);
  });

  it('lists every problem of a bad study file with its line and field, and exits 1', () => {
    const file = join(work, 'bad.study.yaml');
    writeFileSync(file, 'id: Bad Id\ntitle: t\nconsent: ok\ntasks: []\nconditions:\n  - { id: c, agent: robot }\n');
    const result = usher('study', 'check', file);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${file}:1:5: id: expected 1–64 lowercase letters`);
    expect(result.stderr).toContain(`${file}:4:8: tasks: a study needs at least one task`);
    expect(result.stderr).toMatch(/:6:21: conditions\[0\]\.agent: /);
    expect(result.stderr).toContain('3 problems');
  });

  it('names a wrong guard or control by line and field, and describes the guard and the controls turned off', () => {
    const scenario = join(root, 'packages/booking/scenarios/default.json');
    const head = `id: g\ntitle: G\nconsent: ok\ntasks:\n  - { id: t, title: T, scenario: ${scenario}, briefing: b, success: { hard: [{ kind: adjacent }] } }\nconditions:\n`;
    const bad = join(work, 'guard.study.yaml');
    writeFileSync(
      bad,
      `${head}  - { id: a, agent: autopilot, guard: ask-often }\n  - { id: b, agent: none, controls: { takeOver: true } }\n`,
    );
    const refused = usher('study', 'check', bad);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/guard\.study\.yaml:7:39: conditions\[0\]\.guard: .*"each-step"/);
    expect(refused.stderr).toMatch(/guard\.study\.yaml:8:49: conditions\[1\]\.controls\.takeOver: .*no agent/);
    const good = join(work, 'guarded.study.yaml');
    writeFileSync(
      good,
      `${head}  - { id: a, agent: autopilot, confirmBeforeSubmit: false, controls: { pause: false } }\n  - { id: b, agent: assist, guard: each-step }\n`,
    );
    const checked = usher('study', 'check', good);
    expect(checked.status).toBe(0);
    expect(checked.stdout).toMatch(
      /conditions\s+a \(autopilot, rules, never asks, no pause\), b \(assist, rules, proposes each step\)\n/,
    );
  });
});

/** A study file whose per-task questionnaire has a Likert item without anchors and an unknown instrument. */
function badQuestionnaire(): string {
  const file = join(work, 'bad-questionnaire.study.yaml');
  writeFileSync(
    file,
    `id: q\ntitle: Q\nconsent: ok\ntasks:\n  - { id: t, title: T, scenario: ${join(root, 'packages/booking/scenarios/default.json')}, briefing: b, success: { hard: [{ kind: adjacent }] } }\nconditions:\n  - { id: alone, agent: none }\nquestionnaires:\n  perTask:\n    - id: s\n      items:\n        - { id: effort, kind: likert, text: How hard?, points: 5 }\n    - instrument: sos\n`,
  );
  return file;
}

describe('a malformed questionnaire', () => {
  it('is refused by usher study check with the file, line and field', () => {
    const file = badQuestionnaire();
    const result = usher('study', 'check', file);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `${file}:12:11: questionnaires.perTask[0].items[0].anchors: missing (expected array)`,
    );
    expect(result.stderr).toContain(`${file}:13:19: questionnaires.perTask[1].instrument: Invalid option`);
  });

  it('is refused by usher serve --study before it serves anyone', () => {
    const file = badQuestionnaire();
    const result = usher('serve', '--port', '0', '--study', file, '--data', join(work, 'data-bad-q'));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `${file}:12:11: questionnaires.perTask[0].items[0].anchors: missing (expected array)`,
    );
  });
});

describe('usher study check, scripted mistakes', () => {
  it("counts a condition's scripted mistakes, and names the line and field of a wrong one", () => {
    const scenario = join(root, 'packages/booking/scenarios/default.json');
    const file = join(work, 'mistakes.study.yaml');
    const write = (mistake: string) =>
      writeFileSync(
        file,
        `id: m\ntitle: M\nconsent: ok\ntasks:\n  - { id: t, title: T, scenario: ${scenario}, briefing: b, success: { hard: [{ kind: adjacent }] } }\nconditions:\n  - id: slip\n    agent: autopilot\n    mistakes:\n      - { task: t, stage: time, kind: later-showing }\n      - ${mistake}\n`,
      );
    write('{ task: t, stage: seat, kind: seats-apart }');
    const ok = usher('study', 'check', file);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/conditions\s+slip \(autopilot, rules, asks before submitting, 2 scripted mistakes\)/);
    write('{ task: t, stage: time, kind: seats-apart }');
    const bad = usher('study', 'check', file);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(
      /:11:\d+: conditions\[0\]\.mistakes\[1\]\.stage: a "seats-apart" mistake is made on the seat stage/,
    );
  });
});

describe('usher serve --study', () => {
  it('refuses a language-model planner without a configured model, saying which', () => {
    const scenario = join(root, 'packages/booking/scenarios/default.json');
    const study = (condition: string) => {
      const file = join(work, `refused-${condition.length}.study.yaml`);
      writeFileSync(
        file,
        `id: r\ntitle: R\nconsent: ok\ntasks:\n  - { id: t, title: T, scenario: ${scenario}, briefing: b, success: { hard: [{ kind: adjacent }] } }\nconditions:\n  - ${condition}\n`,
      );
      return file;
    };
    const llm = usher(
      'serve',
      '--port',
      '0',
      '--study',
      study('{ id: model, agent: autopilot, planner: llm }'),
      '--data',
      join(work, 'd2'),
    );
    expect(llm.status).toBe(1);
    expect(llm.stderr).toMatch(/condition "model" plans with a language model, but none is configured/);
  });

  it('refuses a study file with problems, listing them', () => {
    const file = join(work, 'broken.study.yaml');
    writeFileSync(file, 'id: x\n');
    const result = usher('serve', '--port', '0', '--study', file, '--data', join(work, 'data-broken'));
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/the study file has problems:\n.*broken\.study\.yaml:1:1: title: missing/);
  });

  it('runs a study without agents: its link admits a participant into a room of their own', async () => {
    const file = join(work, 'solo.study.yaml');
    writeFileSync(
      file,
      `id: solo\ntitle: Solo\nconsent: ok\ntasks:\n  - { id: t, title: T, scenario: ${join(root, 'packages/booking/scenarios/default.json')}, briefing: b, success: { hard: [{ kind: adjacent }] } }\nconditions:\n  - { id: alone, agent: none }\n`,
    );
    const { child, url } = await startServe(
      ['--study', file, '--data', join(work, 'data-solo'), '--logs', join(work, 'logs')],
      root,
    );
    const response = await fetch(`${url}/s/solo?participant=P1`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toMatch(/^\/\?room=r-[\w-]+&study=solo&participant=p-[0-9a-f]+$/);
    const exited = new Promise((resolve) => child.on('close', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
