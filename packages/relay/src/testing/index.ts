/** Test helpers for code that talks to the relay: the relay on a free port, a recording client, a scripted host and a scripted agent. */
export * from './scripted-agent.ts';
export * from './test-client.ts';
export * from './test-relay.ts';
