/**
 * The Usher wire contract: every mvp-0.2 message, the tools' params, the uiSpec and the study-log
 * record, as zod schemas with their inferred types. Imports nothing from Node, so browsers use it too.
 */
export * from './bounds.ts';
export * from './console.ts';
export * from './envelope.ts';
export * from './errors.ts';
export * from './json-schemas.ts';
export * from './messages/index.ts';
export * from './questionnaire.ts';
export * from './study-flow.ts';
export * from './study-log.ts';
export * from './tools.ts';
export * from './ui-spec.ts';
export * from './version.ts';
