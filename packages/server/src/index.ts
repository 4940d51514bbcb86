/** The Usher server: the relay at /agent/ws with study logs, the HTTP API and the headless host. */

export {
  Capabilities,
  type Capability,
  CredentialError,
  DEFAULT_TOKEN_DAYS,
  ExperimenterNameSchema,
  joinRefusal,
} from './access/capabilities.ts';
export { clientAddress, TrustedProxies } from './access/client-address.ts';
export { checkFrameSource } from './access/framing.ts';
export { loadSecret, SecretError } from './access/secret.ts';
export { type AgentControl, StudyConsole } from './console/study-console.ts';
export { HeadlessHost, type HeadlessHostOptions } from './headless-host/headless-host.ts';
export { DEFAULT_LIMITS, type RelayLimits } from './relay/limits.ts';
export { CLOSE_REPLACED, Relay, type RelayOptions, type RoomStatus } from './relay/relay.ts';
export { loadScenarioFile } from './scenario-file.ts';
export { type RunningServer, type ServerOptions, StartupError, startServer, VERSION } from './server.ts';
export { FlowError, StudyMode, type TaskHooks } from './study/study-mode.ts';
export { type LogFileIo, LogWriteError, NODE_FILE_IO, StudyLog } from './study-log/study-log.ts';
