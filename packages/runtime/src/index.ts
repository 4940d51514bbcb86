/**
 * The agent's doors for instructions (DESIGN.md): a run is one instruction carried out by the
 * agent on the host in a room, reported as AgentEvents. The stdio JSON-RPC server and the
 * external-sync client are built on {@link RunEngine}. The contracts they speak, AgentEvents
 * included, are `@usher/protocol/stdio` and `@usher/protocol/sync`.
 */
export type { Conversation, RunEngine, RunOutcome, RunQuestions, RunRequest } from './engine.ts';
export { HostRunEngine, type HostRunEngineOptions } from './host-engine.ts';
export * from './stdio/index.ts';
export { SyncAgent, type SyncAgentOptions } from './sync/index.ts';
