/**
 * The relay contract, mvp-0.2 (`@usher/protocol/relay`): every message between agents, hosts and
 * the relay, the tools' params, the uiSpec and the study-log record, as zod schemas with their
 * inferred types. Imports nothing from Node, so browsers use it too.
 */
export * from '../bounds.ts';
export * from './envelope.ts';
export * from './errors.ts';
export * from './json-schemas.ts';
export * from './messages/index.ts';
export * from './study-log.ts';
export * from './tools.ts';
export * from './ui-spec.ts';
export * from './version.ts';
