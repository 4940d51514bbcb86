import { Agent, type AgentResult, createLlmPlanner, type Episode, EpisodicLog, type LlmConfig } from '@usher/agent';

/**
 * What starts one condition's agent in one room: plain data, so the same agent can be made in the
 * server's thread or in an agent thread (agent-threads.ts).
 */
export interface AgentSpec {
  relayUrl: string;
  token?: string;
  room: string;
  studyId: string;
  participantId: string;
  mode: 'assist' | 'autopilot';
  paceMs: number;
  pageTools: boolean;
  confirmInChat: boolean;
  /** Folder of the agents' episode logs; null keeps them in memory. */
  episodesDir: string | null;
  /** The language model, for a condition that plans with one. */
  llm: LlmConfig | null;
}

/** What the supervisor hears of a running agent. */
export interface AgentListener {
  episode(episode: Episode): void;
  log(line: string): void;
}

/** One agent at work, wherever it runs: its run's result, and a way to stop it. */
export interface AgentHandle {
  readonly result: Promise<AgentResult>;
  stop(): void;
}

/** Makes the agent of `spec` and starts it in this thread. */
export function runAgent(spec: AgentSpec, listener: AgentListener): AgentHandle {
  const log = (line: string) => listener.log(line);
  const agent = new Agent({
    url: spec.relayUrl,
    room: spec.room,
    study: spec.studyId,
    participant: spec.participantId,
    mode: spec.mode,
    ...(spec.token && { token: spec.token }),
    paceMs: spec.paceMs,
    pageTools: spec.pageTools,
    confirmInChat: spec.confirmInChat,
    episodes: new EpisodicLog({ dir: spec.episodesDir, onRecord: (episode) => listener.episode(episode) }),
    ...(spec.llm && { planner: createLlmPlanner(spec.llm, undefined, { log }) }),
    log,
  });
  // Run from the next microtask: the caller holds the handle before the first episode record comes.
  return { result: Promise.resolve().then(() => agent.run()), stop: () => agent.stop() };
}
