import type { QuestionnaireItemView, QuestionnaireView } from '@usher/protocol';

export type AnswerValue = number | string | string[];
export type Answers = Record<string, AnswerValue>;

/** Where the participant was in a questionnaire, kept in the browser so a reload loses nothing. */
export interface Draft {
  section: number;
  answers: Answers;
}

/**
 * Drafts live in the browser's localStorage, one per participant and questionnaire (the room is
 * the participant's own), until the server has the answers; the server stores answers only when a
 * questionnaire is submitted whole, checked.
 */
export function draftKey(room: string, questionnaire: QuestionnaireView): string {
  return `usher:answers:${room}:${questionnaire.kind}:${questionnaire.taskId ?? 'end'}`;
}

export function readDraft(storage: Storage, key: string, questionnaire: QuestionnaireView): Draft {
  try {
    const draft = JSON.parse(storage.getItem(key) ?? 'null') as Partial<Draft> | null;
    const section = Number.isInteger(draft?.section) ? (draft?.section as number) : 0;
    return {
      section: Math.max(0, Math.min(section, questionnaire.sections.length - 1)),
      answers: draft?.answers && typeof draft.answers === 'object' ? draft.answers : {},
    };
  } catch {
    // A draft that cannot be read (another page version, a full storage) starts afresh.
    return { section: 0, answers: {} };
  }
}

export function writeDraft(storage: Storage, key: string, draft: Draft): void {
  try {
    storage.setItem(key, JSON.stringify(draft));
  } catch {
    // Storage full or refused: the answers stay on the page, only a reload would lose them.
  }
}

/** Whether an item counts as answered (an empty text or no choice is no answer). */
export function isAnswered(value: AnswerValue | undefined): boolean {
  if (value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/** The answer to an item, if given (own properties only: an item may be called `constructor`). */
export function answerTo(answers: Answers, itemId: string): AnswerValue | undefined {
  return Object.hasOwn(answers, itemId) ? answers[itemId] : undefined;
}

/** The required items of a section left unanswered. */
export function missingRequired(items: readonly QuestionnaireItemView[], answers: Answers): string[] {
  return items.filter((item) => item.required && !isAnswered(answerTo(answers, item.id))).map((item) => item.id);
}

/** The answers to send: only the questionnaire's own items, answered. */
export function submittable(questionnaire: QuestionnaireView, answers: Answers): Answers {
  const out: Answers = {};
  for (const item of questionnaire.sections.flatMap((s) => s.items)) {
    const value = answerTo(answers, item.id);
    if (value !== undefined && isAnswered(value)) out[item.id] = value;
  }
  return out;
}
