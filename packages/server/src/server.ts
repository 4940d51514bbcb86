import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import type { Scenario } from '@usher/booking';
import { AGENT_WS_PATH } from '@usher/protocol';
import {
  Capabilities,
  type Capability,
  CredentialError,
  checkFrameSource,
  clientView,
  DEFAULT_LIMITS,
  HeadlessHost,
  type LogFileIo,
  loopbackHostRefusal,
  markOwnConnection,
  originRefusal,
  presentedToken,
  Relay,
  type RelayLimits,
  repairTornLogs,
  SocketLimits,
  TrustedProxies,
} from '@usher/relay';
import { CONSENT_GRACE_MS, type RegistryFlush, type Study, type StudyRegistry } from '@usher/study';
import {
  AgentChangedError,
  type PilotRun,
  type StudyAgentOptions,
  type StudyConsole,
  StudyHost,
  type StudyMode,
  settleStudyManifest,
  type TaskHooks,
} from '@usher/study-host';
import { createApp } from './http/app.ts';

export interface ServerOptions {
  port: number;
  bind: string;
  logsDir: string;
  /** The world the hosts show: the headless host's, and the web host's (at `/api/scenario`). Required with `headlessHost`. */
  scenario?: Scenario;
  /** Room the headless host joins. */
  room: string;
  headlessHost: boolean;
  /**
   * `token`: every connection and API call needs a credential signed with `secret` (README,
   * "Security model"); `open`: none does (one researcher on loopback). Open by default here; the
   * CLI decides from the address it binds to.
   */
  access?: 'open' | 'token';
  /** The server's secret (see `loadSecret`); required with `access: 'token'`. */
  secret?: Uint8Array;
  /** How long a study log found ending in a record cut short must stay so before it is mended (study-log/repair.ts); 10 s. */
  logRepairSettleMs?: number;
  /** Origins of pages allowed to connect and to change state besides the server's own (`*` for any). */
  allowOrigins?: string[];
  /** Sites besides the server's own that may show study pages in a frame (`https://*.example.org` allowed); none by default. */
  frameAncestors?: string[];
  /**
   * Reverse proxies in front of the server (addresses, CIDR ranges, `loopback`): from them,
   * `X-Forwarded-For` says which client the per-address limits count. None by default.
   */
  trustProxy?: string[];
  limits?: Partial<RelayLimits>;
  /** Shorthand for `limits.heartbeatMs`. */
  heartbeatMs?: number;
  /** The study logs' file calls (tests play a full disk with it). */
  logIo?: LogFileIo;
  /** Run a study (study mode): its file, loaded, and the registry of its participants. */
  study?: {
    study: Study;
    registry: StudyRegistry;
    hooks?: TaskHooks;
    /** The registry's file: the experimenter's export download reads it (none without). */
    registryPath?: string;
    /**
     * Its agents' model and whether a change of agent since the first participant is accepted (the
     * agent manifest, study-host's `supervisor/manifest.ts`); no model and no change by default.
     */
    agents?: StudyAgentOptions;
    /** A pilot's run (`usher pilot`): seeded, and its records marked `pilot: true`. */
    pilot?: PilotRun;
    /** How the questionnaire log is flushed (tests hold or fail it); `fdatasync` on libuv's pool by default. */
    answersFlush?: RegistryFlush;
  };
  warn?: (line: string) => void;
  /** Folder of the web host's built assets, served at `/`. */
  webRoot?: string;
  /** Serve the built pages' source maps (`usher serve --source-maps`). */
  sourceMaps?: boolean;
  /** The headless host's clock for chat timestamps (the system clock by default). */
  now?: () => Date;
}

export interface RunningServer {
  /** `http://host:port` */
  url: string;
  /** `ws://host:port/agent/ws` */
  agentUrl: string;
  port: number;
  /**
   * `http://127.0.0.1:port`: where the server's own agents (a study's supervisor's) connect, a
   * second listener on loopback that only they may use. Its connections count toward no limit of
   * strangers' (`maxSockets`, `maxConnections`): see {@link listenOwnAgents}.
   */
  ownAgentsUrl: string;
  relay: Relay;
  headlessHost: HeadlessHost | null;
  /** Issues credentials, or null in open mode. */
  capabilities: Capabilities | null;
  /** The study the server runs, or null. */
  study: StudyMode | null;
  /** The experimenter's console of the study (set `console.agents` once the supervisor runs), or null. */
  console: StudyConsole | null;
  /**
   * Ends every open study log with a shutdown record naming `reason` and drops every connection,
   * synchronously: what a fatal-error handler calls before the process exits.
   */
  abort(reason: string): void;
  close(): Promise<void>;
}

/** Thrown when the server cannot start; its message is meant for the person who started it. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

export const VERSION = '0.1.0';

/**
 * Starts the relay, the study host (with a study), the HTTP API and, when asked, the headless
 * host. Each part is set up by a function of its own below, in this order.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  try {
    mkdirSync(options.logsDir, { recursive: true });
  } catch (err) {
    throw new StartupError(`cannot create the logs folder ${options.logsDir}: ${(err as Error).message}`);
  }
  const warn = options.warn ?? ((line: string) => console.error(line));
  const now = options.now ?? (() => new Date());
  const access = accessFrom(options);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const manifest = options.study && settleAgent(options.study, now());
  const relay = startRelay(options, access.trustedProxies, warn);
  const studyHost = options.study
    ? new StudyHost({
        ...options.study,
        relay,
        logsDir: options.logsDir,
        limits,
        now,
        warn,
        ...(manifest && { manifest }),
      })
    : null;
  let headlessHost: HeadlessHost | null = null;
  const app = createApp({
    relay,
    headlessHost: () => headlessHost,
    version: VERSION,
    warn,
    scenario: options.scenario ?? null,
    webRoot: options.webRoot ?? null,
    sourceMaps: options.sourceMaps ?? false,
    startedAt: new Date(),
    capabilities: access.capabilities,
    allowOrigins: access.allowOrigins,
    frameAncestors: access.frameAncestors,
    studyHost,
    loopbackOnly: access.loopbackOnly,
    client: clientView(access.trustedProxies),
  });
  const http = await listenHttp(options, limits, access, relay, getRequestListener(app.fetch), warn);
  headlessHost = await startHeadlessHost(options, http.url, access.capabilities, relay);
  studyHost?.start();

  return {
    url: http.url,
    agentUrl: `${http.url.replace(/^http/, 'ws')}${AGENT_WS_PATH}`,
    port: http.port,
    ownAgentsUrl: http.ownAgentsUrl,
    relay,
    get headlessHost() {
      return headlessHost;
    },
    capabilities: access.capabilities,
    study: studyHost?.mode ?? null,
    console: studyHost?.console ?? null,
    abort: (reason) => {
      studyHost?.stop();
      headlessHost?.close();
      relay.close(reason);
    },
    close: () => {
      studyHost?.stop();
      headlessHost?.close();
      relay.close();
      // The study logs of tasks that just ended are flushed on libuv's pool: stopped only once on disk.
      return Promise.all([http.close(), relay.studyLogsFlushed()]).then(() => {});
    },
  };
}

/**
 * The study's agent manifest, checked against the one its registry holds (refused with the
 * fields that changed when the agent changed since the first participant and no one accepted it).
 */
function settleAgent(study: NonNullable<ServerOptions['study']>, now: Date) {
  try {
    return settleStudyManifest(study.registry, study.study, {
      usher: VERSION,
      llm: study.agents?.llm ?? null,
      accept: study.agents?.accept ?? false,
      now,
    });
  } catch (err) {
    if (err instanceof AgentChangedError) throw new StartupError(err.message);
    throw err;
  }
}

/** Who may connect and ask: credentials (token mode), the origins allowed, the proxies trusted, the sites that may frame study pages. */
interface Access {
  /** Issues and checks credentials, or null in open mode. */
  capabilities: Capabilities | null;
  allowOrigins: string[];
  /** Open mode on a loopback address answers only requests that name it (no DNS rebinding). */
  loopbackOnly: boolean;
  trustedProxies: TrustedProxies | null;
  frameAncestors: string[];
}

/** Checks the options of access control (and a study's limits) before anything starts. */
function accessFrom(options: ServerOptions): Access {
  const access = options.access ?? 'open';
  if (access === 'token' && !options.secret) throw new StartupError('access control needs the server secret');
  const capabilities = access === 'token' ? new Capabilities(options.secret as Uint8Array) : null;
  const arrivalRetentionMs = options.limits?.arrivalRetentionMs ?? DEFAULT_LIMITS.arrivalRetentionMs;
  if (options.study && arrivalRetentionMs < CONSENT_GRACE_MS) {
    throw new StartupError(
      `arrivalRetentionMs must be at least ${CONSENT_GRACE_MS} (30 minutes): assignment counts an arrival who has not consented for that long`,
    );
  }
  let trustedProxies: TrustedProxies | null = null;
  try {
    trustedProxies = options.trustProxy?.length ? new TrustedProxies(options.trustProxy) : null;
  } catch (err) {
    throw new StartupError(`trusted proxy ${(err as Error).message}`);
  }
  let frameAncestors: string[];
  try {
    frameAncestors = (options.frameAncestors ?? []).map(checkFrameSource);
  } catch (err) {
    throw new StartupError(`--frame-ancestors: ${(err as Error).message}`);
  }
  return {
    capabilities,
    allowOrigins: options.allowOrigins ?? [],
    loopbackOnly: !capabilities && loopbackHostRefusal(options.bind) === null,
    trustedProxies,
    frameAncestors,
  };
}

/** The relay, once study logs a killed server left torn are being mended. */
function startRelay(
  options: ServerOptions,
  trustedProxies: TrustedProxies | null,
  warn: (line: string) => void,
): Relay {
  // Logs a server killed mid-write left ending in a record cut short are cut back to their last whole record.
  void repairTornLogs(options.logsDir, warn, options.logRepairSettleMs ?? 10_000).catch((err: Error) =>
    warn(`study logs in ${options.logsDir} could not be checked for records cut short: ${err.message}`),
  );
  return new Relay({
    trustedProxies,
    ...(options.now && { now: options.now }),
    logsDir: options.logsDir,
    limits: { ...options.limits, ...(options.heartbeatMs !== undefined && { heartbeatMs: options.heartbeatMs }) },
    warn,
    ...(options.logIo && { logIo: options.logIo }),
  });
}

interface Listening {
  url: string;
  port: number;
  ownAgentsUrl: string;
  close(): Promise<void>;
}

/**
 * The HTTP server on the public port (the API, the pages, and upgrades to the relay after their
 * origin and credential are checked) and the own agents' door ({@link listenOwnAgents}).
 */
async function listenHttp(
  options: ServerOptions,
  limits: RelayLimits,
  { capabilities, allowOrigins, loopbackOnly, trustedProxies }: Access,
  relay: Relay,
  requests: ReturnType<typeof getRequestListener>,
  warn: (line: string) => void,
): Promise<Listening> {
  const server = createServer(requests);
  const sockets = new SocketLimits(limits, trustedProxies, warn, options.now);
  server.on('connection', (socket) => sockets.accept(socket));
  const upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer, door: 'public' | 'own') => {
    socket.on('error', () => socket.destroy());
    const path = new URL(request.url ?? '/', 'http://relay').pathname;
    if (path !== AGENT_WS_PATH) return refuseUpgrade(socket, 404, 'Not Found', `no WebSocket endpoint at ${path}`);
    const origin = originRefusal(request.headers, allowOrigins);
    if (origin) return refuseUpgrade(socket, 403, 'Forbidden', origin);
    const rebinding = loopbackOnly ? loopbackHostRefusal(request.headers.host) : null;
    if (rebinding) return refuseUpgrade(socket, 403, 'Forbidden', rebinding);
    if (!capabilities) {
      // Open mode has no credentials: whoever reaches the own agents' door is on this machine.
      if (door === 'own') markOwnConnection(request);
      return relay.handleUpgrade(request, socket, head, { kind: 'open' });
    }
    const token = presentedToken(request.headers, request.url ?? '/');
    if (!token) {
      return refuseUpgrade(
        socket,
        401,
        'Unauthorized',
        'a credential is needed: the token of a study link, an agent or an experimenter',
      );
    }
    capabilities.verify(token).then(
      (capability: Capability) => {
        const own = capability.kind === 'agent' && capability.own === true;
        if (door === 'own' && !own) {
          return refuseUpgrade(socket, 403, 'Forbidden', "this listener is for the server's own agents only");
        }
        if (own) markOwnConnection(request);
        if (!socket.destroyed) relay.handleUpgrade(request, socket, head, capability);
      },
      (err: unknown) => {
        const why = err instanceof CredentialError ? err.message : 'the credential could not be checked';
        refuseUpgrade(socket, 401, 'Unauthorized', why);
      },
    );
  };
  server.on('upgrade', (request, socket, head) => upgrade(request, socket, head, 'public'));

  await listen(server, options.port, options.bind).catch((err: NodeJS.ErrnoException) => {
    relay.close();
    if (err.code === 'EADDRINUSE') {
      throw new StartupError(`port ${options.port} is already in use on ${options.bind}; choose another with --port`);
    }
    if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') {
      throw new StartupError(`cannot bind to ${options.bind}: no such local address`);
    }
    if (err.code === 'EACCES') throw new StartupError(`not allowed to listen on port ${options.port}`);
    throw err;
  });

  let ownAgents: Server;
  try {
    ownAgents = await listenOwnAgents(options.bind, (request, socket, head) => upgrade(request, socket, head, 'own'));
  } catch (err) {
    relay.close();
    server.close();
    throw new StartupError(`cannot listen on loopback for the server's own agents: ${(err as Error).message}`);
  }
  const ownAddress = ownAgents.address() as AddressInfo;
  const { port } = server.address() as AddressInfo;
  const host = options.bind.includes(':') ? `[${options.bind}]` : options.bind;
  return {
    url: `http://${host}:${port}`,
    port,
    ownAgentsUrl: `http://${ownAddress.family === 'IPv6' ? `[${ownAddress.address}]` : ownAddress.address}:${ownAddress.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        let open = 2;
        const closed = () => {
          open -= 1;
          if (open === 0) resolve();
        };
        server.close(closed);
        ownAgents.close(closed);
        server.closeAllConnections();
        ownAgents.closeAllConnections();
      }),
  };
}

/** The booking engine joined as the host of `options.room`, when asked (`headlessHost`). */
async function startHeadlessHost(
  options: ServerOptions,
  url: string,
  capabilities: Capabilities | null,
  relay: Relay,
): Promise<HeadlessHost | null> {
  if (!options.headlessHost) return null;
  if (!options.scenario) throw new StartupError('the headless host needs a scenario');
  const headlessHost = new HeadlessHost({
    url: url.replace(/^http/, 'ws'),
    ...(capabilities && { token: await capabilities.issue({ kind: 'host', room: options.room }, 3650) }),
    room: options.room,
    scenario: options.scenario,
    roomIsFree: () => !relay.hasHost(options.room),
    ...(options.warn && { warn: options.warn }),
    ...(options.now && { now: options.now }),
  });
  await headlessHost.start();
  return headlessHost;
}

/** Answers an upgrade that is refused with a plain HTTP status, before any WebSocket exists. */
function refuseUpgrade(socket: Duplex, status: number, title: string, why: string): void {
  const body = `${why}\n`;
  // Ended and then destroyed: a client that never closes its side cannot keep the descriptor.
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}

/**
 * The own agents' door: a second listener, on loopback (of the family the server binds to) and a
 * port of the system's choosing, where the server's own agents connect. `maxSockets` is counted as
 * sockets are accepted, before anything says who they are, so on the public port strangers holding
 * every socket would keep the agents out too; here no stranger can connect from afar, an upgrade
 * must carry the own agents' credential (403 otherwise; in open mode, anyone on this machine may),
 * and a request that is not one is answered 404. The agents there are bounded by `maxRooms` (one
 * per room whose task the server opened; admission.ts), which the descriptor limit the README asks
 * for counts apart from `maxSockets`.
 */
async function listenOwnAgents(
  bind: string,
  onUpgrade: (request: IncomingMessage, socket: Duplex, head: Buffer) => void,
): Promise<Server> {
  const door = createServer((_request, response) => {
    response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
    response.end("only the server's own agents' WebSocket is here\n");
  });
  door.on('upgrade', onUpgrade);
  // The loopback of the server's own family first; a machine without IPv4's (or IPv6's) has the other.
  const [first, other] = bind.includes(':') ? ['::1', '127.0.0.1'] : ['127.0.0.1', '::1'];
  await listen(door, 0, first).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EADDRNOTAVAIL' && err.code !== 'EAFNOSUPPORT') throw err;
    return listen(door, 0, other);
  });
  return door;
}

function listen(server: Server, port: number, bind: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, bind, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
