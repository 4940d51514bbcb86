/**
 * The study host: a study run on the relay. Study mode (the participant's flow: consent,
 * briefing, tasks, questionnaires), the experimenter's console, their HTTP routes and the export
 * download, and the agent supervisor that starts a condition's agent beside each participant.
 */

export { type AgentControl, ConsoleError, StudyConsole } from './console/study-console.ts';
export { MAX_REPLAY_BYTES, SESSION_ID, StudyLogIndex } from './console/study-logs.ts';
export { MAX_UNSENT_CHARS } from './http/console-routes.ts';
export { type ExportRouteOptions, mountExportRoutes } from './http/export-routes.ts';
export { readJson } from './http/read-json.ts';
export { MAX_RETURN_KEYS, mountStudyRoutes } from './http/study-routes.ts';
export { AnswersLog } from './study/answers-log.ts';
export { ArrivalExpiry, EXPIRY_EVERY_MS } from './study/arrival-expiry.ts';
export { AnswersRefused } from './study/questionnaires.ts';
export {
  FlowError,
  type PilotRun,
  StudyFullError,
  StudyMode,
  type StudyRoomLimits,
  type TaskHooks,
} from './study/study-mode.ts';
export { StudyHost, type StudyHostOptions, type StudyRouteDeps } from './study-host.ts';
export { AgentThreads } from './supervisor/agent-threads.ts';
export {
  AgentChangedError,
  type AgentManifest,
  conditionManifest,
  hashOf,
  type ManifestSource,
  manifestChanges,
  manifestRecord,
  type SettledManifest,
  type StudyAgentOptions,
  type StudyManifest,
  settleManifest,
  settleStudyManifest,
  studyManifest,
} from './supervisor/manifest.ts';
export { type AgentFeedEvent, AgentSupervisor, type SupervisorOptions } from './supervisor/supervisor.ts';
