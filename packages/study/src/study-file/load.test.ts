import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadStudyFile, StudyFileError, type StudyFileProblem } from './load.ts';

const DEMO = new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname;
const SCENARIO = new URL('../../../booking/scenarios/default.json', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'usher-study-file-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let files = 0;
/** Writes a study file and returns the problems loading it reports (none when it loads). */
function problemsOf(text: string): StudyFileProblem[] {
  const path = join(work, `study-${++files}.yaml`);
  writeFileSync(path, text);
  try {
    loadStudyFile(path);
    return [];
  } catch (err) {
    if (err instanceof StudyFileError) return err.problems;
    throw err;
  }
}

const valid = (overrides: { tasks?: string; conditions?: string; extra?: string } = {}) => `id: s-1
title: A study
consent: I agree.
tasks:
${
  overrides.tasks ??
  `  - id: t1
    title: Task one
    scenario: ${SCENARIO}
    briefing: Book two tickets.
    success:
      hard:
        - { kind: seatCount, count: 2 }`
}
conditions:
${overrides.conditions ?? '  - { id: alone, agent: none }'}
${overrides.extra ?? ''}`;

describe('the study file', () => {
  it('loads the shipped demo study whole, with defaults filled in and both scenarios loaded, without warnings', () => {
    const study = loadStudyFile(DEMO);
    expect(study).toMatchObject({
      id: 'demo-01',
      assignment: { design: 'between', conditions: 'balanced', order: 'latin-square' },
      completion: { code: 'USHER-DEMO-01' },
    });
    expect(study.tasks.map((t) => [t.id, t.world.id])).toEqual([
      ['imax-evening', 'default'],
      ['family-matinee', 'default'],
    ]);
    expect(study.conditions).toEqual([
      {
        id: 'alone',
        label: 'No agent (baseline)',
        agent: 'none',
        planner: 'rules',
        paceMs: 800,
        guard: 'before-submit',
        confirmBeforeSubmit: true,
        controls: { pause: false, takeOver: false },
        pageTools: true,
        chat: false,
        mistakes: [],
      },
      expect.objectContaining({ id: 'autopilot', agent: 'autopilot', guard: 'before-submit' }),
      expect.objectContaining({
        id: 'step-approval',
        agent: 'autopilot',
        guard: 'each-step',
        confirmBeforeSubmit: true,
        controls: { pause: true, takeOver: true },
      }),
    ]);
    expect(study.warnings).toEqual([]);
  });

  it('accepts JSON as well as YAML', () => {
    expect(
      problemsOf(
        JSON.stringify({
          id: 'j',
          title: 'J',
          consent: 'ok',
          tasks: [
            { id: 't', title: 'T', scenario: SCENARIO, briefing: 'b', success: { hard: [{ kind: 'adjacent' }] } },
          ],
          conditions: [{ id: 'c', agent: 'assist' }],
        }),
      ),
    ).toEqual([]);
  });

  it('names the file, the line, the column and the field of each problem, all at once', () => {
    const problems = problemsOf(
      valid({
        tasks: `  - id: t1
    title: Task one
    scenario: ${SCENARIO}
    briefing: Book two tickets.
    sucess:
      hard: []`,
        conditions: `  - { id: alone, agent: none }
  - id: helper
    agent: copilot
    paceMs: -5`,
      }),
    );
    const file = `study-${files}.yaml`;
    expect(problems.map((p) => ({ ...p, file: p.file.endsWith(file) }))).toEqual([
      // A mistyped field: once, on its own line, with what it probably meant (not also "success: missing").
      {
        file: true,
        line: 9,
        column: 5,
        field: 'tasks[0].sucess',
        message: 'unknown field "sucess" (did you mean "success"?)',
      },
      {
        file: true,
        line: 14,
        column: 12,
        field: 'conditions[1].agent',
        message: expect.stringMatching(/none.*assist.*autopilot.*wizard/),
      },
      { file: true, line: 15, column: 13, field: 'conditions[1].paceMs', message: expect.stringMatching(/>=0/) },
    ]);
    expect(new StudyFileError(problems).message).toMatch(/study-\d+\.yaml:14:12: conditions\[1\]\.agent: /);
  });

  it('reports a mistyped field where it is written, and every other problem with it: a missing scenario, a condition no study has', () => {
    const problems = problemsOf(
      valid({
        tasks: `  - id: t1
    title: Task one
    scenario: nowhere.json
    briefng: Book two tickets.
    success:
      hard:
        - { kind: seatCount, count: 2 }`,
        extra: `questionnaires:
  postStudy:
    - id: last
      conditions: [helper]
      items:
        - { id: device, kind: single, text: Which device?, options: [A phone, A computer], requird: false }`,
      }),
    );
    expect(problems.map((p) => [p.line, p.field, p.message])).toEqual([
      [7, 'tasks[0].scenario', 'no such file: nowhere.json'],
      [8, 'tasks[0].briefng', 'unknown field "briefng" (did you mean "briefing"?)'],
      [17, 'questionnaires.postStudy[0].conditions[0]', 'no condition "helper" in this study'],
      [19, 'questionnaires.postStudy[0].items[0].requird', 'unknown field "requird" (did you mean "required"?)'],
    ]);
    // A name nothing is close to gets no guess.
    const far = problemsOf(valid({ extra: 'colourScheme: dark' }));
    expect(far.map((p) => [p.line, p.field, p.message])).toEqual([
      [14, 'colourScheme', 'unknown field "colourScheme"'],
    ]);
  });

  it('refuses duplicate ids, a within-subjects design with too few tasks, and a constraint the checker does not know', () => {
    const problems = problemsOf(
      valid({
        conditions: `  - { id: a, agent: none }
  - { id: a, agent: autopilot }`,
        extra: 'assignment: { design: within }',
      }),
    );
    expect(problems.map((p) => [p.line, p.field, p.message])).toEqual([
      [14, 'conditions[1].id', '"a" is already the id of conditions[0]'],
      [15, 'assignment.design', expect.stringMatching(/2 conditions need 2 tasks, not 1/)],
    ]);
    const unknownKind = problemsOf(
      valid({
        tasks: `  - { id: t, title: T, scenario: ${SCENARIO}, briefing: b, success: { hard: [{ kind: colour }] } }`,
      }),
    );
    expect(unknownKind.map((p) => p.field)).toEqual(['tasks[0].success.hard[0].kind']);
  });

  it('checks scripted mistakes: the stage of their kind, a task of the study, an agent to make them, one id each', () => {
    const good = problemsOf(
      valid({
        conditions: `  - id: slip
    agent: autopilot
    mistakes:
      - { task: t1, stage: time, kind: later-showing, minutes: 90 }
      - { task: t1, stage: seat, kind: seats-apart }`,
      }),
    );
    expect(good).toEqual([]);
    const problems = problemsOf(
      valid({
        conditions: `  - id: slip
    agent: autopilot
    mistakes:
      - { task: t1, stage: date, kind: seats-apart }
      - { task: t9, stage: date, kind: next-day }
      - { task: t1, stage: date, kind: next-day, minutes: 30 }
      - { task: t1, stage: time, kind: earlier-showing }
      - { task: t1, stage: date, kind: next-day }
  - id: alone
    agent: none
    mistakes: [{ task: t1, stage: seat, kind: seats-apart }]`,
      }),
    );
    expect(problems.map((p) => [p.line, p.field, p.message])).toEqual([
      [16, 'conditions[0].mistakes[0].stage', 'a "seats-apart" mistake is made on the seat stage, not the date stage'],
      [17, 'conditions[0].mistakes[1].task', 'no task "t9" in this study'],
      [18, 'conditions[0].mistakes[2].minutes', 'only a "later-showing" mistake has minutes'],
      [
        19,
        'conditions[0].mistakes[3].kind',
        expect.stringMatching(/expected one of "later-showing"\|"next-day"\|"seats-apart"/),
      ],
      [20, 'conditions[0].mistakes[4].id', 'mistakes[2] is already "next-day" in task "t1": give each its own id'],
      [23, 'conditions[1].mistakes', 'a condition without an agent has no agent to make mistakes'],
    ]);
  });

  it('reads guard and controls, keeps confirmBeforeSubmit meaning before-submit, and names each wrong one by line and field', () => {
    const conditionsOf = (conditions: string) => {
      const file = join(work, `guard-${conditions.length}.study.yaml`);
      writeFileSync(file, valid({ conditions }));
      return loadStudyFile(file).conditions.map((c) => [c.id, c.guard, c.confirmBeforeSubmit, c.controls]);
    };
    expect(
      conditionsOf(`  - { id: a, agent: autopilot }
  - { id: b, agent: autopilot, confirmBeforeSubmit: false }
  - { id: c, agent: assist, guard: each-step, controls: { takeOver: false } }
  - { id: d, agent: autopilot, confirmBeforeSubmit: true, guard: before-submit }
  - { id: e, agent: wizard }`),
    ).toEqual([
      ['a', 'before-submit', true, { pause: true, takeOver: true }],
      ['b', 'never', false, { pause: true, takeOver: true }],
      ['c', 'each-step', true, { pause: true, takeOver: false }],
      ['d', 'before-submit', true, { pause: true, takeOver: true }],
      ['e', 'before-submit', true, { pause: false, takeOver: false }],
    ]);
    const problems = problemsOf(
      valid({
        conditions: `  - { id: a, agent: autopilot, guard: always }
  - { id: b, agent: autopilot, guard: never, confirmBeforeSubmit: true }
  - { id: c, agent: none, guard: each-step, controls: { pause: true } }
  - { id: d, agent: autopilot, controls: { pause: yes, stop: true } }`,
      }),
    );
    expect(problems.map((p) => [p.line, p.field, p.message])).toEqual([
      [13, 'conditions[0].guard', expect.stringMatching(/"never"\|"before-submit"\|"each-step"/)],
      [14, 'conditions[1].confirmBeforeSubmit', expect.stringMatching(/says the opposite of guard: never/)],
      [15, 'conditions[2].guard', expect.stringMatching(/needs an assist or autopilot agent, not none/)],
      [15, 'conditions[2].controls.pause', expect.stringMatching(/agent: none has no agent of the server's to pause/)],
      [16, 'conditions[3].controls.stop', 'unknown field "stop"'],
      [16, 'conditions[3].controls.pause', 'Invalid input: expected boolean, received string'],
    ]);
  });

  it('says which task names a scenario that is missing or not a scenario, relative to the study file', () => {
    writeFileSync(join(work, 'broken.json'), '{"id": "x"');
    writeFileSync(join(work, 'empty.json'), '{"id": "x"}');
    const problems = problemsOf(
      valid({
        tasks: `  - { id: a, title: A, scenario: nowhere.json, briefing: b, success: { hard: [{ kind: adjacent }] } }
  - { id: b, title: B, scenario: broken.json, briefing: b, success: { hard: [{ kind: adjacent }] } }
  - { id: c, title: C, scenario: empty.json, briefing: b, success: { hard: [{ kind: adjacent }] } }`,
      }),
    );
    expect(problems.map((p) => [p.line, p.field, p.message])).toEqual([
      [5, 'tasks[0].scenario', 'no such file: nowhere.json'],
      [6, 'tasks[1].scenario', expect.stringMatching(/^broken\.json is not valid JSON/)],
      [7, 'tasks[2].scenario', expect.stringMatching(/^empty\.json is not a valid scenario/)],
    ]);
  });

  it('reports YAML that does not parse with its line, and a file that is not there', () => {
    expect(problemsOf('id: s\ntitle: [unclosed\n')).toEqual([
      expect.objectContaining({ line: expect.any(Number), message: expect.stringMatching(/^not valid YAML/) }),
    ]);
    expect(problemsOf('id: s\nid: t\n')[0]?.message).toMatch(/not valid YAML.*unique/i);
    expect(() => loadStudyFile(join(work, 'no-such.study.yaml'))).toThrow(/no such file/);
  });

  it('warns of a task no showing of its scenario can satisfy, and still loads', () => {
    const path = join(work, 'impossible.yaml');
    writeFileSync(
      path,
      valid({
        tasks: `  - { id: t, title: T, scenario: ${SCENARIO}, briefing: b, success: { hard: [{ kind: title, is: [Nope] }] } }`,
      }),
    );
    const study = loadStudyFile(path);
    expect(study.warnings).toEqual([
      expect.objectContaining({
        line: 5,
        field: 'tasks[0].success',
        message: expect.stringMatching(/no participant can succeed/),
      }),
    ]);
  });
});
