/** The external-sync door (specs/external-sync-websocket.md): the agent side, dialing an orchestrator. */
export { SyncAgent, type SyncAgentOptions } from './sync-agent.ts';
