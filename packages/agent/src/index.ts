/**
 * The Usher agent runtime (specs/external-agent-runtime.md), as a pipeline of stages:
 * perception/ → preferences/ → planning/ → action/ → memory/, with runtime/ joining them to the relay.
 */
export {};
