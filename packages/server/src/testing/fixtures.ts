import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StudyLogRecord } from '@usher/protocol';
import { AgentSupervisor, type Study, type StudyRegistry } from '@usher/study';
import { onTestFinished } from 'vitest';
import { type RunningServer, type ServerOptions, startServer } from '../server.ts';
import type { Frame, TestClient } from './test-client.ts';

/** A server on a free port with its own logs folder, stopped and removed when the test ends. */
export async function startTestServer(
  options: Partial<ServerOptions> = {},
): Promise<RunningServer & { logsDir: string }> {
  const logsDir = options.logsDir ?? mkdtempSync(join(tmpdir(), 'usher-logs-'));
  const server = await startServer({
    port: 0,
    bind: '127.0.0.1',
    room: 'default',
    headlessHost: false,
    warn: () => {},
    ...options,
    logsDir,
  });
  onTestFinished(async () => {
    await server.close();
    if (!options.logsDir) rmSync(logsDir, { recursive: true, force: true });
  });
  return Object.assign(server, { logsDir });
}

/**
 * A test server running `study` as `usher serve --study` does: the supervisor starts each
 * condition's agent when a participant's task starts and stops it when it ends, and the console
 * has it. Agents work without episode files; everything stops when the test ends.
 */
export async function startStudyServer(
  options: Omit<Partial<ServerOptions>, 'study'> & { study: Study; registry: StudyRegistry; registryPath?: string },
): Promise<{ server: RunningServer & { logsDir: string }; supervisor: AgentSupervisor }> {
  const { study, registry, registryPath, ...rest } = options;
  let supervisor: AgentSupervisor | null = null;
  const server = await startTestServer({
    ...rest,
    study: {
      study,
      registry,
      ...(registryPath && { registryPath }),
      hooks: {
        taskStarted: (p, condition) => supervisor?.start(p.room, p.id, condition),
        taskEnded: (p) => supervisor?.stop(p.room),
        roomIdle: (room) => supervisor?.idle(room),
      },
    },
  });
  supervisor = new AgentSupervisor({
    relayUrl: server.ownAgentsUrl,
    ...(server.capabilities && { token: await server.capabilities.issue({ kind: 'agent', own: true }) }),
    studyId: study.id,
    episodesDir: null,
    llm: null,
    log: () => {},
  });
  if (server.console) server.console.agents = supervisor;
  onTestFinished(() => supervisor?.stopAll());
  return { server, supervisor };
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
