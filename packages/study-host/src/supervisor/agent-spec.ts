import {
  Agent,
  type AgentActivity,
  type AgentResult,
  createLlmPlanner,
  type Episode,
  EpisodicLog,
  type LlmConfig,
  type MistakeRecord,
  type ScriptedMistake,
} from '@usher/agent';

/**
 * What starts one condition's agent in one room: plain data (it survives a structured clone), so
 * the same agent can be made in the server's thread or in an agent thread (agent-threads.ts).
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
  /** The condition's guard is `before-submit`: the agent asks in the chat before the irreversible submit. */
  confirmInChat: boolean;
  /** The condition's guard is `each-step`: the agent proposes each step and waits for the participant's approval. */
  proposeEachStep: boolean;
  /** The participant took over and hands the room back. */
  handedBack: boolean;
  /** The participant has paused the agent of this room: it starts holding still. */
  held: boolean;
  /** Folder of the agents' episode logs; null keeps them in memory. */
  episodesDir: string | null;
  /** The language model, for a condition that plans with one. */
  llm: LlmConfig | null;
  /** The task's scripted mistakes and the ids of those already made in it; null for none. */
  mistakes: { mistakes: ScriptedMistake[]; made: string[] } | null;
}

/** What the supervisor hears of a running agent. */
export interface AgentListener {
  episode(episode: Episode): void;
  log(line: string): void;
  /**
   * A scripted mistake the agent is about to make: the agent sends the action that makes it only
   * once this returns (or the promise it returns settles), so the study log's record comes first.
   */
  mistake(record: MistakeRecord): void | Promise<void>;
  /** What the agent is doing, told each time it changes (the agent starts `idle`, which is not told). */
  activity?(activity: AgentActivity): void;
}

/** One agent at work, wherever it runs: its run's result, what it is doing, and its controls. */
export interface AgentHandle {
  readonly result: Promise<AgentResult>;
  /** What the agent is doing (in a thread: the latest the thread reported). */
  readonly activity: AgentActivity;
  hold(): void;
  release(): void;
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
    proposeEachStep: spec.proposeEachStep,
    handedBack: spec.handedBack,
    episodes: new EpisodicLog({ dir: spec.episodesDir, onRecord: (episode) => listener.episode(episode) }),
    ...(spec.llm && { planner: createLlmPlanner(spec.llm, undefined, { log }) }),
    ...(spec.mistakes && {
      mistakes: {
        mistakes: spec.mistakes.mistakes,
        made: new Set(spec.mistakes.made),
        onMistake: (record: MistakeRecord) => listener.mistake(record),
      },
    }),
    log,
    ...(listener.activity && { onActivity: (activity: AgentActivity) => listener.activity?.(activity) }),
  });
  if (spec.held) agent.hold();
  // Run from the next microtask: the caller holds the handle before the first episode record comes.
  return {
    result: Promise.resolve().then(() => agent.run()),
    get activity() {
      return agent.activity;
    },
    hold: () => agent.hold(),
    release: () => agent.release(),
    stop: () => agent.stop(),
  };
}
