import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import { MAX_SYNC_FRAME_BYTES, SYNC_PATH } from '@usher/protocol/sync';
import { type WebSocket, WebSocketServer } from 'ws';
import { ExternalSystem } from '../external-system.ts';
import { JournalError } from '../state/journal.ts';
import { bearerCheck, bearerTokenProblem } from './bearer.ts';
import { createApp } from './http.ts';

export const VERSION = '0.1.0';

export interface OrchestratorOptions {
  port: number;
  bind: string;
  /** The bearer token agents must present: one word of visible ASCII (RFC 6750), or the start is refused. */
  token: string;
  /** The bearer token of the HTTP API (`/api/*`), of the same kind; the agents' token when omitted. */
  apiToken?: string;
  /** Folder of the journal. */
  dataDir: string;
  /** See {@link ExternalSystemOptions.agentTimeoutMs}. */
  agentTimeoutMs?: number;
  /** Interval of ping/pong liveness checks; an agent silent for two intervals is dropped. */
  heartbeatMs?: number;
  log?: (line: string) => void;
}

export interface RunningOrchestrator {
  /** `http://host:port` */
  url: string;
  /** `ws://host:port/api/v1/external-agents/sync` */
  syncUrl: string;
  port: number;
  system: ExternalSystem;
  /** What the start found in the journal. */
  replayed: { records: number; tornBytes: number };
  /**
   * Stops at once, synchronously, for a fatal-fault handler about to exit: drops every
   * connection and closes the journal (every committed line is whole and on disk already) and its
   * lock, so a supervisor's restart replays it as it is.
   */
  abort(): void;
  close(): Promise<void>;
}

/** The orchestrator cannot start; its message is meant for the person who started it. */
export class OrchestratorStartupError extends Error {
  override readonly name = 'OrchestratorStartupError';
}

/**
 * The reference orchestrator: the external-sync WebSocket at {@link SYNC_PATH} for agents (bearer
 * token checked on the upgrade; a wrong or missing one gets HTTP 401) and the HTTP API, on one
 * `node:http` server, with every state change in the journal under `dataDir`.
 */
export async function startOrchestrator(options: OrchestratorOptions): Promise<RunningOrchestrator> {
  // A token no `Authorization: Bearer` header can carry would refuse every agent or API call: said at start instead.
  for (const [name, token] of [
    ["agents' token", options.token],
    ['API token', options.apiToken],
  ] as const) {
    const problem = token === undefined ? null : bearerTokenProblem(token);
    if (problem) throw new OrchestratorStartupError(`the ${name} cannot be a bearer token: ${problem}`);
  }
  const log = options.log ?? (() => {});
  let system: ReturnType<typeof ExternalSystem.open>;
  try {
    system = ExternalSystem.open({
      dataDir: options.dataDir,
      log,
      ...(options.agentTimeoutMs !== undefined && { agentTimeoutMs: options.agentTimeoutMs }),
    });
  } catch (err) {
    if (err instanceof JournalError) throw new OrchestratorStartupError(err.message);
    throw err;
  }
  const app = createApp({
    system,
    apiToken: options.apiToken ?? options.token,
    version: VERSION,
    startedAt: new Date(),
    warn: log,
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_SYNC_FRAME_BYTES });
  const alive = new WeakMap<WebSocket, boolean>();
  const authorized = bearerCheck(options.token);

  const server = createServer(getRequestListener(app.fetch));
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const path = new URL(request.url ?? '/', 'http://orchestrator').pathname;
    if (path !== SYNC_PATH) return refuse(socket, 404, 'Not Found', `agents connect to ${SYNC_PATH}`);
    if (!authorized(request.headers.authorization)) {
      log(`refused an agent from ${request.socket.remoteAddress}: wrong or missing bearer token`);
      return refuse(socket, 401, 'Unauthorized', 'a valid "Authorization: Bearer <token>" header is required');
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      alive.set(ws, true);
      const connection = system.connect({
        send: (text) => ws.send(text),
        close: (code, reason) => ws.close(code, reason),
      });
      ws.on('message', (data, isBinary) => {
        if (isBinary) return log('ignored a binary frame from an agent');
        try {
          connection.receive(String(data));
        } catch (err) {
          // No frame may take the orchestrator down: the fault is reported and the next frame read.
          log(
            `fault while reading an agent's frame: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
          );
        }
      });
      ws.on('pong', () => alive.set(ws, true));
      ws.on('error', (err) => log(`agent socket error: ${err.message}`));
      ws.on('close', () => connection.closed());
    });
  });

  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) {
      if (!alive.get(ws)) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  }, options.heartbeatMs ?? 15_000);
  heartbeat.unref();
  const sweeper = setInterval(() => system.sweep(), 1000);
  sweeper.unref();

  try {
    await listen(server, options.port, options.bind);
  } catch (err) {
    clearInterval(heartbeat);
    clearInterval(sweeper);
    system.close();
    throw listenError(err as NodeJS.ErrnoException, options);
  }
  const { port } = server.address() as AddressInfo;
  const host = options.bind.includes(':') ? `[${options.bind}]` : options.bind;
  return {
    url: `http://${host}:${port}`,
    syncUrl: `ws://${host}:${port}${SYNC_PATH}`,
    port,
    system,
    replayed: system.replayed,
    abort: () => {
      clearInterval(heartbeat);
      clearInterval(sweeper);
      try {
        system.close();
      } finally {
        for (const ws of wss.clients) ws.terminate();
        server.closeAllConnections();
        server.close();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(heartbeat);
        clearInterval(sweeper);
        for (const ws of wss.clients) ws.close(1001, 'orchestrator stopping');
        // An agent that does not answer the close handshake (frozen, or gone without a word)
        // would hold the stop for ws's 30 s close timeout.
        const force = setTimeout(() => {
          for (const ws of wss.clients) ws.terminate();
        }, 2000);
        wss.close();
        server.close(() => {
          clearTimeout(force);
          system.close();
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}

function refuse(socket: Duplex, status: number, reason: string, body: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n` +
      (status === 401 ? 'WWW-Authenticate: Bearer realm="usher-sync"\r\n' : '') +
      `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    // Ended and then destroyed: a client that never closes its side cannot keep the descriptor.
    () => socket.destroy(),
  );
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

function listenError(err: NodeJS.ErrnoException, options: OrchestratorOptions): Error {
  if (err.code === 'EADDRINUSE') {
    return new OrchestratorStartupError(
      `port ${options.port} is already in use on ${options.bind}; choose another with --port`,
    );
  }
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') {
    return new OrchestratorStartupError(`cannot bind to ${options.bind}: no such local address`);
  }
  if (err.code === 'EACCES') return new OrchestratorStartupError(`not allowed to listen on port ${options.port}`);
  return err;
}
