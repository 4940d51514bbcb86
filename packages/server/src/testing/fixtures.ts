import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Study, StudyRegistry } from '@usher/study';
import { AgentSupervisor, AgentThreads, type StudyAgentOptions } from '@usher/study-host';
import { onTestFinished } from 'vitest';
import { type RunningServer, type ServerOptions, startServer } from '../server.ts';

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
  options: Omit<Partial<ServerOptions>, 'study'> & {
    study: Study;
    registry: StudyRegistry;
    registryPath?: string;
    /** The agents' model and whether a changed agent is accepted (none, and no, by default). */
    agents?: StudyAgentOptions;
    /** Worker threads for the agents (`usher serve --agent-threads`); 0, the default, runs them in this thread. */
    agentThreads?: number;
  },
): Promise<{ server: RunningServer & { logsDir: string }; supervisor: AgentSupervisor }> {
  const { study, registry, registryPath, agents, agentThreads, ...rest } = options;
  let supervisor: AgentSupervisor | null = null;
  const server = await startTestServer({
    ...rest,
    study: {
      study,
      registry,
      ...(registryPath && { registryPath }),
      ...(agents && { agents }),
      hooks: {
        taskStarted: (p, condition) => supervisor?.start(p.room, p.id, condition, p.plan.tasks[p.taskIndex]?.taskId),
        taskEnded: (p) => supervisor?.stop(p.room),
        roomIdle: (room) => supervisor?.idle(room),
      },
    },
  });
  const threads = agentThreads ? new AgentThreads(agentThreads, () => {}) : null;
  supervisor = new AgentSupervisor({
    relayUrl: server.ownAgentsUrl,
    ...(server.capabilities && { token: await server.capabilities.issue({ kind: 'agent', own: true }) }),
    studyId: study.id,
    episodesDir: null,
    llm: null,
    log: () => {},
    record: (room, type, payload) => server.relay.record(room, type, payload),
    threads,
  });
  if (server.console) server.console.agents = supervisor;
  onTestFinished(async () => {
    await supervisor?.stopAll();
    await threads?.close();
  });
  return { server, supervisor };
}
