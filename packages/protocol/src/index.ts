/**
 * `@usher/protocol`: the relay contract (mvp-0.2, also at `@usher/protocol/relay`) and the study
 * host's HTTP APIs (also at `@usher/protocol/study`). The operator's stdio contract and the
 * external-sync contract are at `@usher/protocol/stdio` and `@usher/protocol/sync`. Imports
 * nothing from Node, so browsers use it too.
 */
export * from './relay/index.ts';
export * from './study/index.ts';
