/**
 * Studies: the study file researchers write (its schema and loader, with errors that name the
 * file, the line and the field), and how participants are assigned to conditions and task orders.
 */
export { AssignmentError, type Plan, type PlannedTask, pickBalanced, planParticipant } from './assignment/assign.ts';
export { balancedLatinSquare, latinOrder } from './assignment/latin-square.ts';
export {
  type ConditionFeatures,
  conditionFeatures,
  type MeasureRecord,
  measureTask,
  type TaskMeasures,
} from './measures/collaboration.ts';
export { type ConditionSummary, type SummaryInput, summariseConditions } from './measures/summary.ts';
export {
  ANSWER_PROBLEMS,
  type Answer,
  type AnswerProblem,
  type AnswerProblemCode,
  checkAnswers,
  checkValue,
  scoreSections,
  visibleSections,
} from './questionnaire/answers.ts';
export {
  INSTRUMENT_DEFINITIONS,
  INSTRUMENTS,
  type Instrument,
  type InstrumentName,
  scoreNasaTlxRaw,
  scoreSus,
  scoreTrust,
} from './questionnaire/instruments.ts';
export * from './questionnaire/schema.ts';
export { FlushError, GroupFlush } from './registry/group-flush.ts';
export { KeptFileFlush } from './registry/kept-flush.ts';
export type { AcceptedChange, StoredManifest } from './registry/manifest-table.ts';
export type { QuestionnaireRecord, StoredAnswer, StoredScore } from './registry/questionnaire-tables.ts';
export {
  CONSENT_GRACE_MS,
  NODE_REGISTRY_FLUSH,
  type Participant,
  type ParticipantStatus,
  type Recruitment,
  type RegistryFlush,
  recruitmentFrom,
  StudyRegistry,
} from './registry/registry.ts';
export {
  formatProblem,
  type LoadedTask,
  loadStudyFile,
  type Study,
  StudyFileError,
  type StudyFileProblem,
} from './study-file/load.ts';
export * from './study-file/mistakes.ts';
export * from './study-file/schema.ts';
