import type { Story } from '@usher/booking';
import type { BookingSummary } from '@usher/protocol';
import type { EpisodicLog } from '../memory/episodic.ts';
import type { PerceivedContext } from '../perception/perceive.ts';
import type { PlannerInput } from '../planning/deterministic.ts';
import type { LlmConfig } from '../planning/llm/config.ts';
import type { MistakeScript } from '../planning/mistakes.ts';
import type { ActionOutcome, NavigationPlan } from '../planning/plan.ts';
import type { PreferenceModel } from '../planning/solver/index.ts';

/* What an agent is given (its options, an instruction) and what it gives back (results, what an observer sees). */

/** The runtime's phases (spec §4). */
export type AgentPhase = 'DISCONNECTED' | 'CONNECTED' | 'JOINED' | 'SESSION_ACTIVE' | 'WAITING_RESULT' | 'TERMINATING';

export interface AgentOptions {
  url: string;
  room: string;
  study: string;
  participant: string;
  mode: 'autopilot' | 'assist';
  /** What to book, in the participant's words (`--goal`). */
  goal?: string;
  /** A scenario's story: its constraints are the starting model. */
  story?: Story;
  /** The episode log (in memory when omitted). */
  episodes?: EpisodicLog;
  /** How long to wait for the `state.updated` after a tool result before resyncing. */
  stateTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Return when blocked instead of waiting for the participant to say more (suites, tests). */
  returnWhenBlocked?: boolean;
  /** Send `session.end` once the booking is made, so the study log is complete and on disk. */
  endSessionWhenDone?: boolean;
  /** The planner (the deterministic one by default); an LLM planner is asynchronous and can be cancelled. */
  planner?: (input: PlannerInput, call?: { signal?: AbortSignal }) => NavigationPlan | Promise<NavigationPlan>;
  log?: (line: string) => void;
  /**
   * Told what the agent is doing ({@link AgentActivity}) each time it changes, and only then: once
   * per change, in order, with the value the agent's `activity` getter gives at that moment. The
   * agent starts `idle`, which is not told.
   */
  onActivity?: (activity: AgentActivity) => void;
  /** The credential for a relay with access control (an agent's), sent when connecting. */
  token?: string;
  /** A pause before each tool call, so a participant can follow what the agent does (a study's pace). */
  paceMs?: number;
  /** Whether the page-tuning tools (filter, sort, highlight, augment) may be used; true by default. */
  pageTools?: boolean;
  /**
   * Before submitting, ask in the host's chat and wait for the participant's yes (a study's
   * condition); an instruction's own `confirmSubmit` takes precedence.
   */
  confirmInChat?: boolean;
  /**
   * Propose each tool call for the participant's approval before sending it (a study condition's
   * `guard: each-step`; runtime/step-approval.ts). Instructions (the operator's, an orchestrator's)
   * are not asked about.
   */
  proposeEachStep?: boolean;
  /**
   * The participant handed the booking back to this agent (after taking over): with no request of
   * theirs to go on with, it says it is back and asks what to do.
   */
  handedBack?: boolean;
  /** The machine's clock, read only when no host has said which day the study is on. */
  now?: () => Date;
  /**
   * An OpenAI-compatible service that reads the goal and each instruction (`planning/llm/reader.ts`);
   * without it, or when its answer cannot be used, the deterministic reader does.
   */
  reader?: LlmConfig;
  /**
   * Mistakes to make on purpose in this task (a study's scripted mistakes, `planning/mistakes.ts`);
   * none when omitted, and the agent then plans exactly as without the option.
   */
  mistakes?: MistakeScript;
}

/** What the agent is doing, as a participant's control press records it. */
export type AgentActivity = 'idle' | 'acting' | 'asking' | 'waiting';

export interface AgentResult {
  /** `declined`: the booking was ready but whoever was asked before submitting said no. */
  status: 'done' | 'blocked' | 'declined' | 'stopped';
  message: string;
  toolCalls: number;
}

/** One tool call as an observer sees it; `id` is the call's own, unique within the agent. */
export interface ObservedCall {
  id: string;
  toolName: string;
  params: Record<string, unknown>;
  reason: string;
  stage: PerceivedContext['stage'];
  /** What the participant sees on the item the call names (`Orbital Drift` for `m-orbital-drift`), if it names one. */
  itemLabel?: string;
}

/** Watches what the agent does while it carries out an instruction (the operator's and orchestrator's doors). */
export interface AgentObserver {
  /** The agent wrote in the host's chat. */
  said?(text: string): void;
  /** The planner made a plan (an LLM plan also says which outside tools it consulted). */
  planned?(plan: NavigationPlan): void;
  /** A tool call is about to be sent. */
  calling?(call: ObservedCall): void;
  /** What came of it, and the state the agent sees afterwards. */
  called?(call: ObservedCall, outcome: ActionOutcome, after: PerceivedContext): void;
}

/** One instruction for {@link Agent.instruct}. */
export interface Instruction {
  text: string;
  /** Aborting stops the agent after the action in flight; the result is then `stopped`. */
  signal?: AbortSignal;
  observer?: AgentObserver;
  /** The wishes to start from (a conversation's own); the agent's current ones when omitted. */
  model?: PreferenceModel;
  /**
   * Asked before the irreversible submit on the confirm stage, with the booking in words and as
   * the confirm stage shows it; `false` leaves the booking unsubmitted.
   */
  confirmSubmit?: (summary: string, booking?: BookingSummary) => Promise<boolean>;
  /** Asked when several options are equally good: the ids picked (the first counts), or none to leave it to the agent. */
  pick?: (question: { title: string; items: { id: string; label: string; detail: string }[] }) => Promise<string[]>;
}

export interface InstructionResult extends AgentResult {
  /** The wishes after this instruction, to start the conversation's next one from. */
  model: PreferenceModel;
}
