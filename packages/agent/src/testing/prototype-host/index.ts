/** An mvp-0.2 host with the research prototype's shapes, written without Usher's booking engine, for the agent's tests (README.md). */
export * from './catalog.ts';
export * from './flow.ts';
export * from './from-world.ts';
export * from './host.ts';
export * from './page.ts';
