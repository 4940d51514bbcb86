import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Scenario } from '@usher/booking';
import { AGENT_WS_PATH } from '@usher/protocol';
import { HeadlessHost } from './headless-host/headless-host.ts';
import { createApp } from './http/app.ts';
import { Relay } from './relay/relay.ts';

export interface ServerOptions {
  port: number;
  bind: string;
  logsDir: string;
  /** The world the hosts show: the headless host's, and the web host's (at `/api/scenario`). Required with `headlessHost`. */
  scenario?: Scenario;
  /** Room the headless host joins. */
  room: string;
  headlessHost: boolean;
  heartbeatMs?: number;
  warn?: (line: string) => void;
  /** Folder of the web host's built assets, served at `/`. */
  webRoot?: string;
  /** The headless host's clock for chat timestamps (the system clock by default). */
  now?: () => Date;
}

export interface RunningServer {
  /** `http://host:port` */
  url: string;
  /** `ws://host:port/agent/ws` */
  agentUrl: string;
  port: number;
  relay: Relay;
  headlessHost: HeadlessHost | null;
  close(): Promise<void>;
}

/** Thrown when the server cannot start; its message is meant for the person who started it. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

export const VERSION = '0.1.0';

/** Starts the relay, the HTTP API and, when asked, the headless host. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  try {
    mkdirSync(options.logsDir, { recursive: true });
  } catch (err) {
    throw new StartupError(`cannot create the logs folder ${options.logsDir}: ${(err as Error).message}`);
  }
  const relay = new Relay({
    logsDir: options.logsDir,
    ...(options.heartbeatMs !== undefined && { heartbeatMs: options.heartbeatMs }),
    ...(options.warn && { warn: options.warn }),
  });
  let headlessHost: HeadlessHost | null = null;
  const app = createApp({
    relay,
    headlessHost: () => headlessHost,
    version: VERSION,
    warn: options.warn ?? ((line) => console.error(line)),
    scenario: options.scenario ?? null,
    webRoot: options.webRoot ?? null,
    startedAt: new Date(),
  });
  const server = createServer(getRequestListener(app.fetch));
  server.on('upgrade', (request, socket, head) => {
    socket.on('error', () => socket.destroy());
    const path = new URL(request.url ?? '/', 'http://relay').pathname;
    if (path !== AGENT_WS_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    relay.handleUpgrade(request, socket, head);
  });

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

  const { port } = server.address() as AddressInfo;
  const host = options.bind.includes(':') ? `[${options.bind}]` : options.bind;
  const url = `http://${host}:${port}`;
  const agentUrl = `ws://${host}:${port}${AGENT_WS_PATH}`;

  if (options.headlessHost) {
    if (!options.scenario) throw new StartupError('the headless host needs a scenario');
    headlessHost = new HeadlessHost({
      url: `ws://${host}:${port}`,
      room: options.room,
      scenario: options.scenario,
      ...(options.warn && { warn: options.warn }),
      ...(options.now && { now: options.now }),
    });
    await headlessHost.start();
  }

  return {
    url,
    agentUrl,
    port,
    relay,
    get headlessHost() {
      return headlessHost;
    },
    close: () =>
      new Promise<void>((resolve) => {
        headlessHost?.close();
        relay.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
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
