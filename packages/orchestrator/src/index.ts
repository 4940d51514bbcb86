/**
 * The external-system side of the external-sync WebSocket protocol
 * (specs/external-sync-websocket.md): {@link ExternalSystem}, a library that owns sessions, their
 * thread mapping and their interactions in a durable journal, and {@link startOrchestrator}, the
 * reference orchestrator (`usher orchestrator`) that serves agents and an HTTP API around it.
 * The protocol's frames are at `@usher/protocol/sync`, shared with the agent side.
 */

export * from '@usher/protocol/sync';
export {
  AgentConnection,
  type AgentInfo,
  type AgentLink,
  CLOSE_REPLACED,
  ExternalSystem,
  type ExternalSystemOptions,
  type RequestErrorCode,
  type SessionView,
  SyncRequestError,
} from './external-system.ts';
export {
  type OrchestratorOptions,
  OrchestratorStartupError,
  type RunningOrchestrator,
  startOrchestrator,
  VERSION,
} from './server/server.ts';
export { Journal, JournalError, type OpenedJournal } from './state/journal.ts';
export { type JournalRecord, JournalRecordSchema } from './state/records.ts';
export { type Interaction, type InteractionState, type Session, SessionStore, StateError } from './state/store.ts';
