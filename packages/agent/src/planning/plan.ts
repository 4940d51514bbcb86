import type { Stage } from '@usher/protocol';

/** One thing the agent does next (spec §4 `PlannedAction`). A tool call always carries a concrete reason. */
export type PlannedAction =
  | { type: 'tool.call'; toolName: string; params: Record<string, unknown>; reason: string }
  | { type: 'agent.message'; text: string; reason: string }
  | { type: 'snapshot.get'; reason: string }
  | { type: 'session.end'; reason: string }
  /** Nothing to send: the participant is to act (assist mode). Never goes on the wire. */
  | { type: 'wait'; reason: string };

/** The planner's view of the way ahead (spec §6 `NavigationPlan`). */
export interface NavigationPlan {
  goal: string;
  currentStage: Stage | null;
  remainingSteps: string[];
  nextAction: PlannedAction;
  /** 0–1: how sure the planner is that `nextAction` serves the goal. */
  confidence: number;
  /** `true` when the agent should stop acting on its own after this action (done, blocked, or waiting on the participant). */
  stop?: 'done' | 'blocked' | 'waiting';
  /**
   * Set when `nextAction` selects one of several options that are equally good by every wish
   * known: all of them, the chosen one first, so whoever gave the instruction may pick instead.
   */
  alternatives?: PlanAlternative[];
}

/** An option as good as the planned one: its item, its label, and why it fits. */
export interface PlanAlternative {
  itemId: string;
  label: string;
  /** Why it fits, without the label ("starts 19:30, at or after your 17:00"). */
  why: string;
}

/** What came of one action (spec §4 `ActionOutcome`), with the code of a failure. */
export interface ActionOutcome {
  ok: boolean;
  code?: string;
  replan: boolean;
  detail?: string;
}
