/** A second mvp-0.2 host, written without Usher's booking engine, for the agent's tests on a host it was not built with. */
export * from './catalog.ts';
export * from './flow.ts';
export * from './from-world.ts';
export * from './host.ts';
