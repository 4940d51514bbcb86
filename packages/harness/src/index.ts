/** Harnesses above the libraries: the local host the agent's suite and benchmark run their worlds on. */
export { localHost } from './local-host.ts';
