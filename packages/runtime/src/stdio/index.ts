/** The stdio door (ui-protocol-stdio): the runtime's JSON-RPC server and what it lists. */
export { loadMcpConfig, type McpConfig, type McpServerConfig } from '../mcp/config.ts';
export { McpRegistry, type McpRegistryOptions, type McpTool } from '../mcp/registry.ts';
export { SessionFile, SessionStore, type StoredRun, type StoredSession } from '../sessions/store.ts';
export { SkillCatalog, type SkillCatalogOptions, type SkillFolder } from '../skills/catalog.ts';
export { PlannerChoice } from './models.ts';
export { type PeerAnswer, RpcPeer } from './peer.ts';
export { DEFAULT_MAX_LINE_BYTES, DEFAULT_UI_TIMEOUT_MS, StdioRuntime, type StdioRuntimeOptions } from './runtime.ts';
export { type QuestionRun, UiRequests } from './ui-requests.ts';
