/**
 * The Usher server: the relay (`@usher/relay`) and, in study mode, the study host
 * (`@usher/study-host`), wired together and served over HTTP, with the headless host when asked.
 */

export { loadScenarioFile } from './scenario-file.ts';
export { type RunningServer, type ServerOptions, StartupError, startServer, VERSION } from './server.ts';
