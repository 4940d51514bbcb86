/**
 * The relay of mvp-0.2 at /agent/ws: rooms, routing, access control (credentials, origins, client
 * addresses), limits and the study logs, and the headless host (the booking engine joined as a
 * room's host). It knows nothing of studies but what {@link RoomHooks} tells it.
 */

export {
  Capabilities,
  type Capability,
  CredentialError,
  DEFAULT_TOKEN_DAYS,
  ExperimenterNameSchema,
  joinRefusal,
  presentedToken,
} from './access/capabilities.ts';
export {
  type ClientView,
  clientAddress,
  clientView,
  limitKey,
  markOwnConnection,
  TrustedProxies,
} from './access/client-address.ts';
export { checkFrameSource, framingHeaders } from './access/framing.ts';
export { crossSiteRefusal, loopbackHostRefusal, originRefusal } from './access/origin.ts';
export { loadSecret, SecretError } from './access/secret.ts';
export { SocketLimits } from './access/socket-limits.ts';
export { HeadlessHost, type HeadlessHostOptions } from './headless-host/headless-host.ts';
export { DEFAULT_LIMITS, type RelayLimits } from './relay/limits.ts';
export { CLOSE_REPLACED, Relay, type RelayOptions, type RoomHooks, type RoomStatus } from './relay/relay.ts';
export { repairTornLogs } from './study-log/repair.ts';
export { type LogFileIo, LogWriteError, NODE_FILE_IO, StudyLog } from './study-log/study-log.ts';
