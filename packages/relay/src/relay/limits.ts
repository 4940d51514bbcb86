/**
 * The relay's limits: what one stranger can make the server hold. Every one is a named,
 * documented value (packages/relay/README.md, "Limits") that `usher serve` can set; every limit
 * that closes something says so in the server's log, and in the study log when a session is open.
 */
export interface RelayLimits {
  /**
   * Open WebSocket connections in all, the server's own agents' apart (they are bounded by
   * `maxRooms`, one per room whose task the server opened, and strangers filling this must not
   * leave participants without their agent: admission.ts).
   */
  maxConnections: number;
  /** Open WebSocket connections from one remote address (a lab behind one NAT shares one). */
  maxConnectionsPerAddress: number;
  /** A connection that has not joined a room this long after connecting is closed (1008). */
  joinTimeoutMs: number;
  /** Rooms held at once; a join that would open one more is refused and closed (1013). */
  maxRooms: number;
  /** A study session whose room has been empty (no host, agent or observer) this long is closed, with a record saying so. */
  idleSessionMs: number;
  /**
   * A study session the server opened for a participant's task is closed when no page (host) has
   * joined its room this long after it opened (study mode). The page's join opens it again when
   * it comes, so a slow page loses nothing; a task started by a script that never connects stops
   * holding a room, a log file and an agent.
   */
  pageJoinMs: number;
  /**
   * Rooms one address holds at once (study mode; a lab behind one NAT shares one): those whose
   * task's study session requests from it started (a session a restart reopened counts toward the
   * address of the first page to join it), and those its pages hold with no task running. A
   * `start-task` past it is refused (`429 TOO_MANY_REQUESTS`), and so is a page's join that would
   * add a room (1013), so a few addresses cannot take every room (`maxRooms`) with participants of
   * their own.
   */
  maxTasksPerAddress: number;
  /** Bytes queued for one peer that it has not read yet; above this the slow peer is closed (1013). */
  maxBufferedBytes: number;
  /**
   * Bytes of frames received but not complete yet, over all connections. Once they reach it, the
   * relay stops reading from the connections in the middle of a frame whose address holds more than
   * a valid frame (1 MiB), and from every one in the middle of a frame once they hold a valid frame
   * more; it reads them again when they hold less (admission.ts).
   */
  maxBytesInProgress: number;
  /**
   * The same for one address: once its unfinished frames hold this, the relay stops reading from
   * its connections in the middle of a frame until it holds less, so a few addresses cannot fill
   * `maxBytesInProgress` with frames they never finish, and what they go on sending waits in their
   * own buffers, not the server's. A frame up to the relay's hard limit (16 MiB) still fits, so it
   * is answered `INVALID_MESSAGE` as before.
   */
  maxBytesInProgressPerAddress: number;
  /** Interval of the relay's pings; a peer that has not answered the previous ping with its pong is dropped. */
  heartbeatMs: number;
  /** A request its host has not answered this long is answered with an error by the relay. */
  requestTimeoutMs: number;
  /** New participants one address may admit through a study link per minute (study mode). */
  admissionsPerMinute: number;
  /**
   * How long a participant who opened the study link and has not consented stays in the registry
   * (study mode); then they are removed and only counted (study/arrival-expiry.ts). At least
   * 30 minutes, the time assignment counts them for.
   */
  arrivalRetentionMs: number;
  /**
   * Open TCP connections in all, HTTP or WebSocket, joined or not: beyond it a new one is closed at
   * once, before a byte is read, so no stranger can take every file descriptor with sockets that
   * never become WebSockets. The server's own agents connect through a listener of their own on
   * loopback (`RunningServer.ownAgentsUrl`), whose sockets this does not count.
   */
  maxSockets: number;
  /** Open TCP connections from one remote address (not counted from loopback or a trusted proxy, which speak for many). */
  maxSocketsPerAddress: number;
}

export const DEFAULT_LIMITS: RelayLimits = {
  maxConnections: 2000,
  maxConnectionsPerAddress: 64,
  joinTimeoutMs: 10_000,
  maxRooms: 1000,
  idleSessionMs: 10 * 60_000,
  pageJoinMs: 60_000,
  maxTasksPerAddress: 64,
  maxBufferedBytes: 8 * 1024 * 1024,
  maxBytesInProgress: 64 * 1024 * 1024,
  maxBytesInProgressPerAddress: 16 * 1024 * 1024 + 64 * 1024,
  heartbeatMs: 15_000,
  requestTimeoutMs: 30_000,
  admissionsPerMinute: 30,
  arrivalRetentionMs: 24 * 60 * 60_000,
  maxSockets: 4000,
  maxSocketsPerAddress: 256,
};
