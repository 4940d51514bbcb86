/** Test helpers for the agent and the doors built on it: a host whose faults a test injects, and shared stories. */
export * from './bounded.ts';
export * from './faulty-host.ts';
export * from './stories.ts';
