import { INSTRUMENT_DEFINITIONS, type InstrumentName } from './instruments.ts';
import type { ItemKind, QuestionnaireItem, QuestionnaireSection } from './schema.ts';

/**
 * Why an answer is refused (the participant API's `INVALID_ANSWERS` lists them):
 * - `unknown-item`: no such item in the questionnaire the participant is shown;
 * - `wrong-kind`: a value of the wrong type for the item (a text for a Likert item);
 * - `out-of-range`: off the item's scale, not one of its options, too long, too many choices;
 * - `missing-required`: a required item left unanswered.
 */
export const ANSWER_PROBLEMS = ['unknown-item', 'wrong-kind', 'out-of-range', 'missing-required'] as const;
export type AnswerProblemCode = (typeof ANSWER_PROBLEMS)[number];

export interface AnswerProblem {
  itemId: string;
  problem: AnswerProblemCode;
  message: string;
}

/** One accepted answer, as the registry keeps it. */
export interface Answer {
  sectionId: string;
  itemId: string;
  kind: ItemKind;
  value: number | string | string[];
  /** The expected answer of an attention check. */
  attentionExpected?: number | string | string[];
}

/** Whether `value` fits `item`, or what is wrong with it (never "missing": the caller decides that). */
export function checkValue(
  item: QuestionnaireItem,
  value: unknown,
): { problem: Exclude<AnswerProblemCode, 'unknown-item' | 'missing-required'>; message: string } | null {
  const wrongKind = (expected: string) => ({ problem: 'wrong-kind' as const, message: `expected ${expected}` });
  const outOfRange = (message: string) => ({ problem: 'out-of-range' as const, message });
  switch (item.kind) {
    case 'likert': {
      if (typeof value !== 'number' || !Number.isInteger(value)) return wrongKind('a whole number');
      const to = item.from + item.points - 1;
      return value < item.from || value > to ? outOfRange(`expected ${item.from}–${to}, not ${value}`) : null;
    }
    case 'slider':
      if (typeof value !== 'number' || !Number.isFinite(value)) return wrongKind('a number');
      if (value < 0 || value > 100) return outOfRange(`expected 0–100, not ${value}`);
      return value % item.step === 0 ? null : outOfRange(`expected a multiple of ${item.step}, not ${value}`);
    case 'single':
      if (typeof value !== 'string') return wrongKind('one option, as a text');
      return item.options.some((o) => o.value === value) ? null : outOfRange(`"${clip(value)}" is not an option`);
    case 'multiple': {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) return wrongKind('a list of options');
      const unknown = value.find((v) => !item.options.some((o) => o.value === v));
      if (unknown !== undefined) return outOfRange(`"${clip(unknown)}" is not an option`);
      if (new Set(value).size !== value.length) return outOfRange('an option is chosen twice');
      const min = item.min ?? 0;
      const max = item.max ?? item.options.length;
      if (value.length < min || value.length > max)
        return outOfRange(`expected ${min}–${max} choices, not ${value.length}`);
      return null;
    }
    case 'text':
    case 'longtext':
      if (typeof value !== 'string') return wrongKind('a text');
      return value.length > item.maxLength ? outOfRange(`at most ${item.maxLength} characters`) : null;
  }
}

const clip = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

const shownIn = (conditions: readonly string[] | undefined, participant: readonly string[]) =>
  conditions === undefined || conditions.some((c) => participant.includes(c));

/**
 * The questionnaire a participant is shown: the sections and items for their condition(s)
 * (`conditions` of a section or item), sections left empty dropped.
 */
export function visibleSections(
  sections: readonly QuestionnaireSection[],
  conditionIds: readonly string[],
): QuestionnaireSection[] {
  return sections
    .filter((section) => shownIn(section.conditions, conditionIds))
    .map((section) => ({ ...section, items: section.items.filter((item) => shownIn(item.conditions, conditionIds)) }))
    .filter((section) => section.items.length > 0);
}

/** Whether an answer counts as given: an empty text or an empty choice is no answer. */
const answered = (value: unknown) =>
  value !== undefined &&
  value !== null &&
  !(typeof value === 'string' && value.trim() === '') &&
  !(Array.isArray(value) && value.length === 0);

/**
 * Checks a participant's answers against the questionnaire they were shown ({@link visibleSections}):
 * the accepted answers in the questionnaire's order, or every problem found.
 */
export function checkAnswers(
  sections: readonly QuestionnaireSection[],
  answers: Readonly<Record<string, unknown>>,
): { ok: true; answers: Answer[] } | { ok: false; problems: AnswerProblem[] } {
  const problems: AnswerProblem[] = [];
  const accepted: Answer[] = [];
  const known = new Set<string>();
  for (const section of sections) {
    for (const item of section.items) {
      known.add(item.id);
      // Own answers only: an item called `constructor` is not answered by Object's prototype.
      const value = Object.hasOwn(answers, item.id) ? answers[item.id] : undefined;
      if (!answered(value)) {
        if (item.required) problems.push({ itemId: item.id, problem: 'missing-required', message: 'needs an answer' });
        continue;
      }
      const wrong = checkValue(item, typeof value === 'string' ? value.trim() : value);
      if (wrong) {
        problems.push({ itemId: item.id, ...wrong });
        continue;
      }
      accepted.push({
        sectionId: section.id,
        itemId: item.id,
        kind: item.kind,
        value: (typeof value === 'string' ? value.trim() : value) as Answer['value'],
        ...(item.attention && { attentionExpected: item.attention.expect }),
      });
    }
  }
  for (const itemId of Object.keys(answers)) {
    if (!known.has(itemId)) {
      problems.push({ itemId: clip(itemId), problem: 'unknown-item', message: 'no such item in this questionnaire' });
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, answers: accepted };
}

/** The scores of the standard instruments among `sections`, from accepted answers. */
export function scoreSections(
  sections: readonly QuestionnaireSection[],
  answers: readonly Answer[],
): { instrument: InstrumentName; score: number }[] {
  const byId = new Map(answers.map((a) => [a.itemId, a.value]));
  return sections.flatMap((section) =>
    section.instrument
      ? [{ instrument: section.instrument, score: INSTRUMENT_DEFINITIONS[section.instrument].score(byId) }]
      : [],
  );
}
