/** Test helpers for code that talks to the relay: a recording client, a scripted host and a scripted agent. */
export * from './fixtures.ts';
export * from './scripted-agent.ts';
export * from './test-client.ts';
