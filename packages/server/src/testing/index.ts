/**
 * Test helpers for the whole server: a server on a free port (with a study, its supervisor), the
 * participant's side of a study link, and the relay's helpers (`@usher/relay/testing`).
 */
export * from '@usher/relay/testing';
export * from './fixtures.ts';
export * from './study-links.ts';
