/** The agent's scenario suite: scenario files, the runner and its judge, and the report (see suite/README.md). */
export * from './optimum.ts';
export * from './report.ts';
export * from './run.ts';
export * from './scenario.ts';
