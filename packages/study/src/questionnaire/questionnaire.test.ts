import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadStudyFile, type Study, StudyFileError, type StudyFileProblem } from '../study-file/load.ts';
import { checkAnswers, scoreSections, visibleSections } from './answers.ts';

const SCENARIO = new URL('../../../booking/scenarios/default.json', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'usher-questionnaire-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let files = 0;
/** A study of one task and two conditions with these questionnaires (YAML, indented under `questionnaires:`). */
function load(questionnaires: string): { study?: Study; problems: StudyFileProblem[] } {
  const path = join(work, `q-${++files}.study.yaml`);
  writeFileSync(
    path,
    `id: q
title: Q
consent: ok
tasks:
  - { id: t1, title: T, scenario: ${SCENARIO}, briefing: b, success: { hard: [{ kind: adjacent }] } }
conditions:
  - { id: alone, agent: none }
  - { id: agent, agent: autopilot }
questionnaires:
${questionnaires}`,
  );
  try {
    return { study: loadStudyFile(path), problems: [] };
  } catch (err) {
    if (err instanceof StudyFileError) return { problems: err.problems };
    throw err;
  }
}
const lines = (problems: StudyFileProblem[]) => problems.map((p) => `${p.line}: ${p.field}: ${p.message}`);

const PER_TASK = `  perTask:
    - id: about
      title: About this task
      items:
        - { id: effort, kind: likert, text: How much effort did it take?, points: 5, from: 0, anchors: [None, A lot] }
        - { id: useful, kind: slider, text: How useful was the assistant?, step: 5, anchors: [Not at all, Very], conditions: [agent] }
        - { id: mode, kind: single, text: Which did you use most?, options: [The list, { value: chat, label: The chat }] }
        - { id: seen, kind: multiple, text: What did you look at?, options: [Times, Prices, Seats], min: 1, max: 2, required: false }
        - { id: note, kind: text, text: One word for it, required: false, maxLength: 40 }
        - { id: check, kind: likert, text: Choose 4 here, points: 5, anchors: [a, b], attention: { expect: 4 } }
    - { instrument: trust, conditions: [agent] }
  postStudy:
    - instrument: sus
    - id: last
      items:
        - { id: comments, kind: longtext, text: Anything else?, required: false }`;

describe('questionnaires in the study file', () => {
  it('loads per-task and post-study questionnaires, instruments expanded with their items, defaults filled in', () => {
    const { study, problems } = load(PER_TASK);
    expect(problems).toEqual([]);
    const perTask = study?.questionnaires.perTask ?? [];
    expect(perTask.map((s) => [s.id, s.instrument, s.items.length])).toEqual([
      ['about', null, 6],
      ['trust', 'trust', 12],
    ]);
    expect(perTask[0]?.items[2]).toMatchObject({
      options: [
        { value: 'The list', label: 'The list' },
        { value: 'chat', label: 'The chat' },
      ],
      required: true,
    });
    expect(perTask[0]?.items[4]).toMatchObject({ kind: 'text', maxLength: 40, required: false });
    expect(study?.questionnaires.postStudy?.map((s) => s.id)).toEqual(['sus', 'last']);
    expect(study?.questionnaires.postStudy?.[1]?.items[0]).toMatchObject({ kind: 'longtext', maxLength: 2000 });
  });

  it('shows each condition only its own sections and items', () => {
    const perTask = load(PER_TASK).study?.questionnaires.perTask ?? [];
    const alone = visibleSections(perTask, ['alone']);
    expect(alone.map((s) => s.id)).toEqual(['about']);
    expect(alone[0]?.items.map((i) => i.id)).toEqual(['effort', 'mode', 'seen', 'note', 'check']);
    expect(visibleSections(perTask, ['agent']).flatMap((s) => s.items).length).toBe(18);
  });

  it('refuses a malformed questionnaire naming the line and field of each problem', () => {
    const { problems } = load(`  perTask:
    - id: s1
      items:
        - { id: a, kind: likert, text: x, points: 5, anchors: [one, two, three] }
        - { id: b, kind: slidr, text: x }
        - { id: c, kind: single, text: Pick B, options: [A, B], attention: { expect: C } }
        - { id: d, kind: slider, text: x, step: 7 }
        - { id: a, kind: text, text: again, attention: { expect: yes } }
    - instrument: sux
    - { id: s3 }
  postStudy:
    - instrument: sus
    - id: more
      items:
        - { id: sus-1, kind: multiple, text: m, options: [A, B], max: 3 }`);
    expect(lines(problems)).toEqual([
      '13: questionnaires.perTask[0].items[0].anchors: expected 2 anchors (the ends) or 5 (one per point), not 3',
      '14: questionnaires.perTask[0].items[1].kind: expected "kind" to be one of "likert", "slider", "single", "multiple", "text", "longtext"',
      '15: questionnaires.perTask[0].items[2].attention.expect: "C" is not an option',
      '16: questionnaires.perTask[0].items[3].step: expected a step that divides 100',
      '17: questionnaires.perTask[0].items[4].attention: a free-text item cannot be an attention check',
      '18: questionnaires.perTask[1].instrument: Invalid option: expected one of "sus"|"nasa-tlx-raw"|"trust"',
      '19: questionnaires.perTask[2]: a section needs "items", or an "instrument" by name',
      '24: questionnaires.postStudy[1].items[0].max: there are only 2 options',
      '24: questionnaires.postStudy[1].items[0].id: item "sus-1" is already in section "sus" (item ids are unique in a questionnaire)',
    ]);
    expect(problems[0]?.file).toMatch(/q-\d+\.study\.yaml$/);
  });

  it('refuses an item id used twice, a condition the study does not have, and too much free text', () => {
    expect(
      lines(
        load(`  postStudy:
    - instrument: sus
    - id: more
      items:
        - { id: sus-3, kind: text, text: t }`).problems,
      ),
    ).toEqual([
      '14: questionnaires.postStudy[1].items[0].id: item "sus-3" is already in section "sus" (item ids are unique in a questionnaire)',
    ]);
    expect(
      lines(
        load(`  perTask:
    - { instrument: nasa-tlx-raw, conditions: [robot] }`).problems,
      ),
    ).toEqual(['11: questionnaires.perTask[0].conditions[0]: no condition "robot" in this study']);
    const long = Array.from(
      { length: 3 },
      (_, i) => `        - { id: l${i}, kind: longtext, text: t, maxLength: 5000 }`,
    );
    expect(lines(load(`  perTask:\n    - id: s\n      items:\n${long.join('\n')}`).problems)).toEqual([
      '11: questionnaires.perTask: its free-text answers may hold 15000 characters together; at most 10000 (lower some maxLength)',
    ]);
  });
});

describe('answers, checked against the questionnaire shown', () => {
  const sections = visibleSections(load(PER_TASK).study?.questionnaires.perTask ?? [], ['agent']);
  const trust = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`trust-${i + 1}`, i < 5 ? 2 : 6]));
  const good = { effort: 0, useful: 85, mode: 'chat', seen: ['Times', 'Seats'], check: 4, ...trust };

  it('accepts fitting answers, optional ones left out, the attention check’s expected answer beside it, and scores the instrument', () => {
    const result = checkAnswers(sections, { ...good, note: '  short  ' });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.answers.map((a) => a.itemId)).toEqual([
      'effort',
      'useful',
      'mode',
      'seen',
      'note',
      'check',
      ...Object.keys(trust),
    ]);
    expect(result.answers.find((a) => a.itemId === 'note')).toMatchObject({ value: 'short', kind: 'text' });
    expect(result.answers.find((a) => a.itemId === 'check')).toMatchObject({ value: 4, attentionExpected: 4 });
    // Distrust 2 → 6 (×5), trust 6 (×7): a mean of 6.
    expect(scoreSections(sections, result.answers)).toEqual([{ instrument: 'trust', score: 6 }]);
  });

  it('refuses unknown items, wrong kinds, values off the scale and missing required answers, naming each', () => {
    const result = checkAnswers(sections, {
      ...good,
      effort: 5,
      useful: 'very',
      mode: 'phone',
      seen: ['Times', 'Prices', 'Seats'],
      check: undefined,
      extra: 1,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => [p.itemId, p.problem])).toEqual([
      ['effort', 'out-of-range'],
      ['useful', 'wrong-kind'],
      ['mode', 'out-of-range'],
      ['seen', 'out-of-range'],
      ['check', 'missing-required'],
      ['extra', 'unknown-item'],
    ]);
    // An item the participant's condition does not show is unknown to them.
    const alone = visibleSections(load(PER_TASK).study?.questionnaires.perTask ?? [], ['alone']);
    const { useful: _u, ...rest } = good;
    const hidden = checkAnswers(alone, { ...rest, useful: 50 });
    expect(hidden.ok ? [] : hidden.problems.map((p) => p.itemId)).toEqual([...Object.keys(trust), 'useful']);
  });

  it('reads only the answers given: an item called "constructor" left out is missing, not answered by Object', () => {
    const odd = load(`  perTask:
    - id: s
      items:
        - { id: constructor, kind: likert, text: x, points: 3, anchors: [a, b] }`).study?.questionnaires.perTask;
    const result = checkAnswers(odd ?? [], {});
    expect(result.ok ? [] : result.problems.map((p) => [p.itemId, p.problem])).toEqual([
      ['constructor', 'missing-required'],
    ]);
  });
});
