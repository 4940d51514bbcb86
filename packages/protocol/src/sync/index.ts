/**
 * The external-sync contract (`@usher/protocol/sync`): the WebSocket frames between an
 * orchestrator and Usher's agent, after external-sync-websocket with the decisions of DESIGN.md.
 * Imports nothing from Node.
 */
export * from './frames.ts';
export * from './json-schemas.ts';
