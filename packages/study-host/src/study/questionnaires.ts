import type { QuestionnaireSubmission, QuestionnaireView } from '@usher/protocol';
import {
  type AnswerProblem,
  checkAnswers,
  type Participant,
  type ParticipantStatus,
  type QuestionnaireKind,
  type QuestionnaireRecord,
  type QuestionnaireSection,
  type Study,
  type StudyRegistry,
  scoreSections,
  visibleSections,
} from '@usher/study';
import type { AnswersLog } from './answers-log.ts';

/** Answers that do not fit the questionnaire; nothing was stored. Each problem names its item. */
export class AnswersRefused extends Error {
  override readonly name = 'AnswersRefused';
  constructor(readonly problems: AnswerProblem[]) {
    super(
      `${problems.length} answer${problems.length > 1 ? 's' : ''} refused: ${problems
        .slice(0, 10)
        .map((p) => `${p.itemId}: ${p.message}`)
        .join('; ')}${problems.length > 10 ? '; …' : ''}`,
    );
  }
}

/** The questionnaire a participant is on, as their condition(s) show it, or null. */
export interface ShownQuestionnaire {
  kind: QuestionnaireKind;
  taskId: string | null;
  conditionId: string | null;
  sections: QuestionnaireSection[];
}

/** What a participant in `status` at `taskIndex` is asked, if anything (sections of no item dropped). */
function shown(
  study: Study,
  participant: Pick<Participant, 'plan'>,
  status: ParticipantStatus,
  taskIndex: number,
): ShownQuestionnaire | null {
  const { plan } = participant;
  if (status === 'task-questionnaire') {
    const planned = plan.tasks[taskIndex];
    if (!planned) return null;
    const sections = visibleSections(study.questionnaires.perTask ?? [], [planned.conditionId]);
    return { kind: 'per-task', taskId: planned.taskId, conditionId: planned.conditionId, sections };
  }
  if (status === 'post-study') {
    // Within subjects the participant met every condition of their plan: an item for any of them is theirs.
    const met = plan.conditionId ? [plan.conditionId] : [...new Set(plan.tasks.map((t) => t.conditionId))];
    const sections = visibleSections(study.questionnaires.postStudy ?? [], met);
    return { kind: 'post-study', taskId: null, conditionId: plan.conditionId, sections };
  }
  return null;
}

/**
 * The questionnaire a participant is on. Empty only when the study file changed under a
 * participant already on it (a restart with another file): submitting nothing then moves them on,
 * rather than leaving them on a questionnaire that no longer asks anything.
 */
export function shownQuestionnaire(study: Study, participant: Participant): ShownQuestionnaire | null {
  return shown(study, participant, participant.status, participant.taskIndex);
}

/** Where a participant goes when `status` is next: past a questionnaire their condition shows nothing of. */
function unlessEmpty(
  study: Study,
  participant: Participant,
  status: ParticipantStatus,
  taskIndex: number,
): { status: ParticipantStatus; taskIndex: number } | null {
  const questionnaire = shown(study, participant, status, taskIndex);
  return questionnaire && questionnaire.sections.length > 0 ? { status, taskIndex } : null;
}

/** After the task at `taskIndex` (and its questionnaire, when `answered`): the next briefing, the post-study questionnaire or the end. */
export function nextStep(
  study: Study,
  participant: Participant,
  taskIndex: number,
  answered: boolean,
): { status: ParticipantStatus; taskIndex: number } {
  if (!answered) {
    const questionnaire = unlessEmpty(study, participant, 'task-questionnaire', taskIndex);
    if (questionnaire) return questionnaire;
  }
  if (taskIndex + 1 < participant.plan.tasks.length) return { status: 'briefing', taskIndex: taskIndex + 1 };
  return unlessEmpty(study, participant, 'post-study', taskIndex) ?? { status: 'done', taskIndex };
}

/** The questionnaire as the participant's page shows it: no attention check gives its answer away. */
export function questionnaireView(questionnaire: ShownQuestionnaire): QuestionnaireView {
  return {
    kind: questionnaire.kind,
    ...(questionnaire.taskId && { taskId: questionnaire.taskId }),
    sections: questionnaire.sections.map((section) => ({
      id: section.id,
      ...(section.title && { title: section.title }),
      ...(section.intro && { intro: section.intro }),
      items: section.items.map(({ conditions: _c, attention: _a, ...item }) => item),
    })),
  };
}

/**
 * Checks a participant's answers to the questionnaire they are on, scores its instruments, and
 * stores it all (registry and questionnaire log) as it moves them on, or throws and stores
 * nothing: {@link AnswersRefused} for answers that do not fit, `false` from the registry when
 * another step moved the participant meanwhile (the caller's "out of step").
 */
export function recordAnswers(
  deps: { study: Study; registry: StudyRegistry; log: AnswersLog; now: Date },
  participant: Participant,
  questionnaire: ShownQuestionnaire,
  submission: QuestionnaireSubmission,
): boolean {
  const checked = checkAnswers(questionnaire.sections, submission.answers);
  if (!checked.ok) throw new AnswersRefused(checked.problems);
  const record: QuestionnaireRecord = {
    studyId: deps.study.id,
    participantId: participant.id,
    conditionId: questionnaire.conditionId,
    taskId: questionnaire.taskId,
    questionnaire: questionnaire.kind,
    answers: checked.answers,
    scores: scoreSections(questionnaire.sections, checked.answers),
  };
  const from = { status: participant.status, taskIndex: participant.taskIndex };
  const next =
    questionnaire.kind === 'per-task'
      ? nextStep(deps.study, participant, participant.taskIndex, true)
      : { status: 'done' as const, taskIndex: participant.taskIndex };
  const submittedAt = deps.now.toISOString();
  return deps.registry.recordQuestionnaire(record, next, from, deps.now, () =>
    deps.log.append({ ...record, submittedAt, ...(submission.at && { page: { at: submission.at } }) }),
  );
}
