import type { PreferenceModel } from '@usher/agent';
import type { AgentEvent } from '@usher/protocol/stdio';

/**
 * A conversation with the agent: a stdio session or an external-sync thread. Its wishes carry from
 * one instruction to the next, so "make it 3D instead" refines the last booking request.
 */
export interface Conversation {
  id: string;
  model: PreferenceModel;
}

/** What a run may ask whoever gave the instruction; each is offered only when that side can answer. */
export interface RunQuestions {
  /** Before the irreversible submit: true to book. */
  confirm?(question: { title: string; message: string }): Promise<boolean>;
  /** When a needed wish is missing: the answer, or null when they would not say. */
  prompt?(question: { title: string; message: string }): Promise<string | null>;
  /** When several options are equally good: the ids picked (the first counts), or none to leave it to the agent. */
  pick?(question: { title: string; items: { id: string; label: string; detail: string }[] }): Promise<string[]>;
}

export interface RunRequest {
  text: string;
  conversation: Conversation;
  signal: AbortSignal;
  /** Receives the run's AgentEvents in order; never called after the run settles. */
  emit(event: AgentEvent): void;
  questions?: RunQuestions;
}

/** How a run ended. `completed` covers a booking made and a run that stopped to ask (its `final` says what). */
export interface RunOutcome {
  status: 'completed' | 'error' | 'cancelled';
  /** The final answer, or what went wrong. */
  message: string;
  /** True when a booking was submitted. */
  booked: boolean;
  toolCalls: number;
}

/** Executes instructions; runs are carried out one at a time, in the order they were given. */
export interface RunEngine {
  run(request: RunRequest): Promise<RunOutcome>;
  /** How much of the planner's context is still free, 0–100, for the operator's status line. */
  contextLeftPercent(): number;
  close(): Promise<void>;
}
