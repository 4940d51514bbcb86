import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scenario } from '@usher/booking';
import { AGENT_WS_PATH, type StudyLogRecord } from '@usher/protocol';
import { onTestFinished } from 'vitest';
import { HeadlessHost } from '../headless-host/headless-host.ts';
import type { RelayLimits } from '../relay/limits.ts';
import { Relay } from '../relay/relay.ts';
import type { Frame, TestClient } from './test-client.ts';

export interface TestRelayOptions {
  /** A free port by default; a port given again starts a relay where a stopped one was. */
  port?: number;
  /** A folder of its own by default, removed when the test ends. */
  logsDir?: string;
  limits?: Partial<RelayLimits>;
  /** The booking engine joins room `room` (`default`) as its host, on `scenario`. */
  headlessHost?: boolean;
  scenario?: Scenario;
  room?: string;
  now?: () => Date;
}

export interface TestRelay {
  /** `http://127.0.0.1:port`: where clients connect (at /agent/ws). */
  url: string;
  port: number;
  logsDir: string;
  relay: Relay;
  headlessHost: HeadlessHost | null;
  close(): Promise<void>;
}

/**
 * The relay alone on a free port of loopback, in open mode (every connection may join as
 * anything), with its own logs folder and, when asked, the headless host: what the tests of its
 * clients (the agent, the runtime, the web host's bridge) need. Stopped and removed when the test
 * ends. The server's own tests use `startTestServer` of `@usher/server/testing`, which adds the
 * HTTP API, access control and study mode.
 */
export async function startTestRelay(options: TestRelayOptions = {}): Promise<TestRelay> {
  const logsDir = options.logsDir ?? mkdtempSync(join(tmpdir(), 'usher-logs-'));
  const relay = new Relay({
    logsDir,
    warn: () => {},
    ...(options.limits && { limits: options.limits }),
    ...(options.now && { now: options.now }),
  });
  const server = createServer((_request, response) => {
    response.writeHead(404).end();
  });
  server.on('upgrade', (request, socket, head) => {
    socket.on('error', () => socket.destroy());
    if (new URL(request.url ?? '/', 'http://relay').pathname !== AGENT_WS_PATH) return socket.destroy();
    relay.handleUpgrade(request, socket, head, { kind: 'open' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  let headlessHost: HeadlessHost | null = null;
  if (options.headlessHost) {
    if (!options.scenario) throw new Error('the headless host needs a scenario');
    headlessHost = new HeadlessHost({
      url: `ws://127.0.0.1:${port}`,
      room: options.room ?? 'default',
      scenario: options.scenario,
      warn: () => {},
      ...(options.now && { now: options.now }),
    });
    await headlessHost.start();
  }
  const close = () =>
    new Promise<void>((resolve) => {
      headlessHost?.close();
      relay.close();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  onTestFinished(async () => {
    await close();
    if (!options.logsDir) rmSync(logsDir, { recursive: true, force: true });
  });
  return { url, port, logsDir, relay, headlessHost, close };
}

export function readLog(path: string): StudyLogRecord[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as StudyLogRecord);
}

export const envelope = (type: string, payload: object, ids: { id?: string; replyTo?: string } = {}) => ({
  v: 'mvp-0.2',
  type,
  ...ids,
  payload,
});

const EMPTY_VIEW = { uiSpec: null, messageHistory: [], toolSchema: [] };

/**
 * Makes a test client answer like a minimal host: every request gets its reply, and a tool call
 * also pushes `state.updated`. `onRequest` may answer instead (return true when it did).
 */
export function scriptHost(host: TestClient, onRequest?: (frame: Frame) => boolean): void {
  let sessionId: string | null = null;
  host.ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as Frame;
    if (onRequest?.(frame)) return;
    const replyTo = frame.id;
    switch (frame.type) {
      case 'session.start':
        sessionId = String(frame.payload.sessionId);
        host.send(envelope('session.started', { sessionId }, { replyTo }));
        break;
      case 'snapshot.get':
        host.send(envelope('snapshot.state', { sessionId, ...EMPTY_VIEW }, { replyTo }));
        break;
      case 'tool.call':
        host.send(envelope('tool.result', { ok: true, toolName: frame.payload.toolName }, { replyTo }));
        host.send(envelope('state.updated', { source: 'agent', ...EMPTY_VIEW }));
        break;
      case 'session.end':
        host.send(envelope('session.ended', { sessionId, logFile: '', stateReset: true }, { replyTo }));
        break;
    }
  });
}
