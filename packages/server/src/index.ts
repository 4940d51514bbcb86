/** The Usher server: the relay at /agent/ws with study logs, the HTTP API and the headless host. */
export { HeadlessHost, type HeadlessHostOptions } from './headless-host/headless-host.ts';
export { CLOSE_REPLACED, Relay, type RelayOptions, type RoomStatus } from './relay/relay.ts';
export { loadScenarioFile } from './scenario-file.ts';
export { type RunningServer, type ServerOptions, StartupError, startServer, VERSION } from './server.ts';
export { StudyLog } from './study-log/study-log.ts';
