/**
 * The agent's doors for instructions (DESIGN.md): a run is one instruction carried out by the
 * agent on the host in a room, reported as AgentEvents. The stdio JSON-RPC server and the
 * external-sync client are built on {@link RunEngine}.
 */
export type { Conversation, RunEngine, RunOutcome, RunQuestions, RunRequest } from './engine.ts';
export { type AgentEvent, type AgentEventOf, AgentEventSchema, type AgentEventType } from './events.ts';
export { HostRunEngine, type HostRunEngineOptions } from './host-engine.ts';
export * from './stdio/index.ts';
export * from './stdio/protocol.ts';
export { SyncAgent, type SyncAgentOptions } from './sync/index.ts';
