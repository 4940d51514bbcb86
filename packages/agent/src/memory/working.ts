import type { ChatEntry, Stage, UiSpec } from '@usher/protocol';
import { fingerprintOf } from './fingerprint.ts';

/** The plan the agent is following now (spec §6 `NavigationPlan`, without its next action). */
export interface ActivePlan {
  /** The id its `plan` episode was written under, so actions can name it. */
  id: string;
  goal: string;
  remainingSteps: string[];
  /** 0.0 – 1.0. */
  confidence: number;
}

export interface WorkingMemoryOptions {
  /** How many distinct UI states to keep for drift detection. Default 20. */
  stateWindow?: number;
  /** How many chat messages the timeline keeps. Default 12. */
  timelineWindow?: number;
}

/** A stage key for failures and tried options; `null` (no uiSpec) is a stage of its own. */
type StageKey = Stage | 'none';
const keyOf = (stage: Stage | null): StageKey => stage ?? 'none';

/**
 * The current session's state (spec §2.4 `WorkingMemory`): the active plan, the recent UI
 * fingerprints, failures and tried options per stage, and the tail of the chat. It is a plain
 * in-process object: one per agent session, dropped when the session ends (the durable record is
 * the {@link EpisodicLog}). Every method is synchronous and does no I/O.
 */
export class WorkingMemory {
  private activePlan: ActivePlan | null = null;
  private readonly states: string[] = [];
  private readonly failures = new Map<StageKey, string[]>();
  private readonly triedOptions = new Map<string, Set<string>>();
  private messages: ChatEntry[] = [];
  private readonly stateWindow: number;
  private readonly timelineWindow: number;

  constructor(options: WorkingMemoryOptions = {}) {
    this.stateWindow = positive(options.stateWindow ?? 20, 'stateWindow');
    this.timelineWindow = positive(options.timelineWindow ?? 12, 'timelineWindow');
  }

  /** The plan being followed, or null before the first plan and after {@link setPlan}(null). */
  get plan(): ActivePlan | null {
    return this.activePlan;
  }

  /** Replaces the active plan (a replan supersedes the old one). Throws on a confidence outside 0–1. */
  setPlan(plan: ActivePlan | null): void {
    if (plan !== null && !(plan.confidence >= 0 && plan.confidence <= 1)) {
      throw new RangeError(`plan confidence must be between 0 and 1, got ${plan.confidence}`);
    }
    this.activePlan = plan === null ? null : { ...plan, remainingSteps: [...plan.remainingSteps] };
  }

  /** Drops the first remaining step of the active plan and returns it (undefined when none is left). */
  completeStep(): string | undefined {
    return this.activePlan?.remainingSteps.shift();
  }

  /**
   * Notes the UI the host shows now and returns its fingerprint. A state equal to the latest one
   * is not stored again, so the window holds changes, not repeats of `state.updated`.
   */
  noteState(uiSpec: UiSpec | null): string {
    const fingerprint = fingerprintOf(uiSpec);
    if (this.states.at(-1) !== fingerprint) {
      this.states.push(fingerprint);
      if (this.states.length > this.stateWindow) this.states.shift();
    }
    return fingerprint;
  }

  /** The latest noted fingerprint, or null before the first {@link noteState}. */
  get currentState(): string | null {
    return this.states.at(-1) ?? null;
  }

  /** The noted fingerprints, oldest first. */
  get recentStates(): readonly string[] {
    return this.states;
  }

  /**
   * The states noted since `fingerprint` was last current: `[]` when the UI still shows it (no
   * drift), the later fingerprints in order when it moved on, and null when it has left the
   * window (treat as drifted and resync). A planner keeps the fingerprint it planned against and
   * asks this before acting, to notice that the participant changed something meanwhile.
   */
  driftSince(fingerprint: string): string[] | null {
    const at = this.states.lastIndexOf(fingerprint);
    return at === -1 ? null : this.states.slice(at + 1);
  }

  /** Counts a failure with its error code on a stage and returns that stage's failure count. */
  recordFailure(stage: Stage | null, code: string): number {
    const key = keyOf(stage);
    const codes = this.failures.get(key) ?? [];
    codes.push(code);
    this.failures.set(key, codes);
    return codes.length;
  }

  /** Failures on a stage so far, or only those with `code` (e.g. to retry `INVALID_PARAMS` once). */
  failuresOn(stage: Stage | null, code?: string): number {
    const codes = this.failures.get(keyOf(stage)) ?? [];
    return code === undefined ? codes.length : codes.filter((c) => c === code).length;
  }

  /**
   * Forgets a stage's failures. Failures otherwise count for the whole session, so a loop that
   * leaves a stage and comes back still stops; the runtime calls this when the participant gives
   * a new instruction that makes the old failures moot.
   */
  clearFailures(stage: Stage | null): void {
    this.failures.delete(keyOf(stage));
  }

  /** Remembers that `optionId` was attempted on `stage` under `contextKey` (see `contextKeyOf`). */
  markTried(stage: Stage | null, contextKey: string, optionId: string): void {
    const key = `${keyOf(stage)}\u0000${contextKey}`;
    const set = this.triedOptions.get(key) ?? new Set<string>();
    set.add(optionId);
    this.triedOptions.set(key, set);
  }

  /** The options already attempted on `stage` under `contextKey`, so backtracking picks another. */
  tried(stage: Stage | null, contextKey: string): ReadonlySet<string> {
    return this.triedOptions.get(`${keyOf(stage)}\u0000${contextKey}`) ?? new Set();
  }

  /** Forgets every option attempted: under a wish said since, an option that failed may fit. */
  forgetTried(): void {
    this.triedOptions.clear();
  }

  /** Takes the host's `messageHistory` (the canonical chat) and keeps its last messages. */
  noteTimeline(messageHistory: readonly ChatEntry[]): void {
    this.messages = messageHistory.slice(-this.timelineWindow);
  }

  /** The kept chat tail, oldest first. */
  get timeline(): readonly ChatEntry[] {
    return this.messages;
  }

  /** The chat tail as lines like `participant: two seats together, please`, each cut to `maxChars`. */
  timelineSummary(maxChars = 200): string {
    return this.messages
      .map((m) => `${m.role}: ${m.text.length > maxChars ? `${m.text.slice(0, maxChars - 1)}…` : m.text}`)
      .join('\n');
  }
}

function positive(n: number, name: string): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`${name} must be a positive integer, got ${n}`);
  return n;
}
