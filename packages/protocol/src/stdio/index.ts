/**
 * The stdio contract (`@usher/protocol/stdio`): JSON-RPC 2.0 over NDJSON between an operator's
 * UI (the terminal UI) and the agent runtime (`usher runtime --stdio`), after ui-protocol-stdio
 * with the decisions of DESIGN.md. Every message's schema, the AgentEvents a run reports, and the
 * method maps both sides validate against. Imports nothing from Node, so any client can use it.
 */
export * from './catalogs.ts';
export * from './envelope.ts';
export * from './events.ts';
export * from './json-schemas.ts';
export * from './methods.ts';
export * from './runs.ts';
export * from './sessions.ts';
export * from './ui.ts';
