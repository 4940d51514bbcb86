import type { QuestionnaireItem } from './schema.ts';

/**
 * Standard instruments a study file includes by name (`- instrument: sus`), with their published
 * items, scales and scoring; packages/study/README.md ("Standard instruments") cites each. Their
 * items are always required: a score needs every answer.
 */
export const INSTRUMENTS = ['sus', 'nasa-tlx-raw', 'trust'] as const;
export type InstrumentName = (typeof INSTRUMENTS)[number];

const likert = (id: string, text: string, points: number, anchors: string[]): QuestionnaireItem => ({
  id,
  kind: 'likert',
  text,
  points,
  from: 1,
  anchors,
  required: true,
});

/** System Usability Scale (Brooke 1996): ten statements, five points from strongly disagree to strongly agree. */
const SUS_STATEMENTS = [
  'I think that I would like to use this system frequently.',
  'I found the system unnecessarily complex.',
  'I thought the system was easy to use.',
  'I think that I would need the support of a technical person to be able to use this system.',
  'I found the various functions in this system were well integrated.',
  'I thought there was too much inconsistency in this system.',
  'I would imagine that most people would learn to use this system very quickly.',
  'I found the system very cumbersome to use.',
  'I felt very confident using the system.',
  'I needed to learn a lot of things before I could get going with this system.',
];

/** NASA Task Load Index (Hart & Staveland 1988), its six subscales as 0–100 sliders in steps of 5. */
const TLX_SUBSCALES: { id: string; title: string; text: string; anchors: [string, string] }[] = [
  {
    id: 'mental',
    title: 'Mental demand',
    text: 'How mentally demanding was the task?',
    anchors: ['Very low', 'Very high'],
  },
  {
    id: 'physical',
    title: 'Physical demand',
    text: 'How physically demanding was the task?',
    anchors: ['Very low', 'Very high'],
  },
  {
    id: 'temporal',
    title: 'Temporal demand',
    text: 'How hurried or rushed was the pace of the task?',
    anchors: ['Very low', 'Very high'],
  },
  {
    id: 'performance',
    title: 'Performance',
    text: 'How successful were you in accomplishing what you were asked to do?',
    anchors: ['Perfect', 'Failure'],
  },
  {
    id: 'effort',
    title: 'Effort',
    text: 'How hard did you have to work to accomplish your level of performance?',
    anchors: ['Very low', 'Very high'],
  },
  {
    id: 'frustration',
    title: 'Frustration',
    text: 'How insecure, discouraged, irritated, stressed, and annoyed were you?',
    anchors: ['Very low', 'Very high'],
  },
];

/**
 * Checklist for Trust between People and Automation (Jian, Bisantz & Drury 2000): twelve
 * statements, seven points from "not at all" to "extremely"; the first five speak of distrust.
 */
const TRUST_STATEMENTS = [
  'The system is deceptive.',
  'The system behaves in an underhanded manner.',
  "I am suspicious of the system's intent, action, or outputs.",
  'I am wary of the system.',
  "The system's actions will have a harmful or injurious outcome.",
  'I am confident in the system.',
  'The system provides security.',
  'The system has integrity.',
  'The system is dependable.',
  'The system is reliable.',
  'I can trust the system.',
  'I am familiar with the system.',
];
/** How many of the trust statements, from the first, speak of distrust (reversed when scored). */
const TRUST_DISTRUST_ITEMS = 5;

export interface Instrument {
  title: string;
  intro: string;
  items: QuestionnaireItem[];
  /** The instrument's score from its answers, by item id (every item answered). */
  score(answers: ReadonlyMap<string, unknown>): number;
}

const inOrder = (items: QuestionnaireItem[], answers: ReadonlyMap<string, unknown>) =>
  items.map((item) => {
    const value = answers.get(item.id);
    if (typeof value !== 'number') throw new RangeError(`no answer to ${item.id}`);
    return value;
  });

const SUS_ITEMS = SUS_STATEMENTS.map((text, i) =>
  likert(`sus-${i + 1}`, text, 5, ['Strongly disagree', 'Strongly agree']),
);
const TLX_ITEMS: QuestionnaireItem[] = TLX_SUBSCALES.map((s) => ({
  id: `tlx-${s.id}`,
  kind: 'slider',
  text: `${s.title}: ${s.text}`,
  step: 5,
  anchors: s.anchors,
  required: true,
}));
const TRUST_ITEMS = TRUST_STATEMENTS.map((text, i) => likert(`trust-${i + 1}`, text, 7, ['Not at all', 'Extremely']));

export const INSTRUMENT_DEFINITIONS: Record<InstrumentName, Instrument> = {
  sus: {
    title: 'Using the system',
    intro: 'For each statement, choose how much you agree, thinking of the system you just used.',
    items: SUS_ITEMS,
    score: (answers) => scoreSus(inOrder(SUS_ITEMS, answers)),
  },
  'nasa-tlx-raw': {
    title: 'Workload',
    intro: 'Rate the task you just did on each scale.',
    items: TLX_ITEMS,
    score: (answers) => scoreNasaTlxRaw(inOrder(TLX_ITEMS, answers)),
  },
  trust: {
    title: 'Trust in the system',
    intro: 'For each statement, choose how well it describes your feeling about the system.',
    items: TRUST_ITEMS,
    score: (answers) => scoreTrust(inOrder(TRUST_ITEMS, answers)),
  },
};

function expectScale(values: readonly number[], count: number, low: number, high: number, what: string): void {
  if (values.length !== count) throw new RangeError(`${what} needs ${count} answers, not ${values.length}`);
  for (const v of values) {
    if (!Number.isFinite(v) || v < low || v > high)
      throw new RangeError(`${what} answers are ${low}–${high}, not ${v}`);
  }
}

/**
 * SUS score, 0–100 (Brooke 1996): each odd (positive) item contributes its answer − 1, each even
 * (negative) item 5 − its answer; the sum (0–40) times 2.5. `answers`: items 1–10 in order, 1–5.
 */
export function scoreSus(answers: readonly number[]): number {
  expectScale(answers, 10, 1, 5, 'SUS');
  const sum = answers.reduce((total, answer, i) => total + (i % 2 === 0 ? answer - 1 : 5 - answer), 0);
  return sum * 2.5;
}

/**
 * Raw TLX (Hart 2006): the unweighted mean of the six subscales, 0–100, without the pairwise
 * weighting of the original (Hart & Staveland 1988). `answers`: mental, physical, temporal,
 * performance, effort, frustration, each 0–100 (performance 0 = perfect).
 */
export function scoreNasaTlxRaw(answers: readonly number[]): number {
  expectScale(answers, 6, 0, 100, 'NASA-TLX');
  return answers.reduce((a, b) => a + b, 0) / answers.length;
}

/**
 * Trust in automation (Jian, Bisantz & Drury 2000), 1–7, higher is more trust: the five distrust
 * items reversed (8 − answer), then the mean of all twelve. `answers`: items 1–12 in order, 1–7.
 */
export function scoreTrust(answers: readonly number[]): number {
  expectScale(answers, 12, 1, 7, 'trust');
  const sum = answers.reduce((total, answer, i) => total + (i < TRUST_DISTRUST_ITEMS ? 8 - answer : answer), 0);
  return sum / answers.length;
}
