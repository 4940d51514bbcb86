/**
 * The study host's HTTP APIs (`@usher/protocol/study`): the participant's flow and the
 * experimenter's console, as the server sends them and the pages read them.
 */
export * from './console.ts';
export * from './questionnaire.ts';
export * from './study-flow.ts';
