import { type ExecutionPort, execute } from '../action/executor.ts';
import type { EpisodicLog } from '../memory/episodic.ts';
import { fingerprintOf } from '../memory/fingerprint.ts';
import type { WorkingMemory } from '../memory/working.ts';
import type { PerceivedContext } from '../perception/perceive.ts';
import type { ActionOutcome, NavigationPlan } from '../planning/plan.ts';
import { idsOfCall } from '../planning/tool-shapes.ts';
import type { AgentObserver, ObservedCall } from './agent-options.ts';

/** What acting needs from the agent: where to record, how to execute, and the hooks around a send. */
export interface ActingPort {
  episodes: EpisodicLog;
  memory: WorkingMemory;
  /** The relay, the context (read for the records too) and the waits the executor uses. */
  execution: ExecutionPort;
  /** A pause before each tool call, so a participant can follow (`AgentOptions.paceMs`). */
  paceMs?: number;
  /** Cuts the pause short when the agent stops. */
  signal: AbortSignal;
  /** The participant paused the agent: the call waiting to be sent is not sent. */
  held(): boolean;
  /** Aborts when the participant pauses the agent (a new signal after each resume). */
  holdSignal(): AbortSignal;
  log(line: string): void;
  /** A tool call is about to go out: the page is told the agent is working. */
  working(): void;
  /** {@link Acting.busy} has just changed. */
  busyChanged(): void;
  /** The action is going out and its result is awaited. */
  sending(): void;
  /** The action's outcome is known. */
  settled(): void;
  /** Changes to the host's state other than the echo of the agent's own chat messages, so far. */
  changes(): number;
}

/**
 * Sends the plan's actions one at a time (spec §5) and keeps their record: plan, action and
 * outcome in the episode log, the active plan in working memory, each tool call for the observer,
 * and how many tool calls were sent.
 */
export class Acting {
  private calls = 0;
  /** A tool call is waiting out its pace or awaiting its result. */
  busy = false;

  constructor(private readonly port: ActingPort) {}

  /** Tool calls sent so far; each observed call's id is `call-<n>` from this count. */
  get toolCalls(): number {
    return this.calls;
  }

  /** Sends the plan's action (single flight) and records plan, action and outcome. */
  async act(plan: NavigationPlan, stateTimeoutMs: number, observer?: AgentObserver): Promise<ActionOutcome> {
    const { episodes, memory, execution } = this.port;
    const action = plan.nextAction;
    if (action.type === 'wait') return { ok: true, replan: false };
    const recorded = episodes.plan({
      goal: plan.goal,
      stage: plan.currentStage,
      remainingSteps: plan.remainingSteps,
      confidence: plan.confidence,
    });
    // The plan being followed now (spec §2.4); each new one supersedes the last.
    memory.setPlan({
      id: recorded.planId,
      goal: plan.goal,
      remainingSteps: plan.remainingSteps,
      confidence: plan.confidence,
    });
    const payload =
      action.type === 'tool.call'
        ? { toolName: action.toolName, params: action.params }
        : action.type === 'agent.message'
          ? { text: action.text }
          : {};
    const before = execution.context();
    const changesBefore = this.port.changes();
    const sent = episodes.action({
      planId: recorded.planId,
      type: action.type,
      reason: action.reason,
      payload,
      stage: before.stage,
      fingerprint: fingerprintOf(before.uiSpec),
    });
    const observed: ObservedCall | null =
      action.type === 'tool.call'
        ? {
            id: `call-${++this.calls}`,
            toolName: action.toolName,
            params: action.params,
            reason: action.reason,
            stage: before.stage,
            ...labelled(before, action.params),
          }
        : null;
    if (observed) observer?.calling?.(observed);
    if (action.type === 'agent.message') observer?.said?.(action.text);
    if (action.type === 'tool.call') {
      this.busy = true;
      this.port.busyChanged();
      this.port.working();
      if (this.port.paceMs) await pause(this.port.paceMs, AbortSignal.any([this.port.signal, this.port.holdSignal()]));
    }
    // The participant acted or wrote during the pause: the plan was made on a page that has moved on.
    const moved = action.type === 'tool.call' && this.port.changes() !== changesBefore;
    // The participant paused the agent: nothing more is sent until they resume it.
    const held = action.type === 'tool.call' && !moved && this.port.held();
    if (!moved && !held) this.port.sending();
    let outcome: ActionOutcome;
    try {
      outcome = moved
        ? {
            ok: true,
            code: 'PAGE_MOVED',
            replan: true,
            detail: 'not sent: the page changed while it waited to be sent',
          }
        : held
          ? { ok: true, code: 'PAUSED', replan: true, detail: 'not sent: the participant paused the agent' }
          : await execute(action, execution, stateTimeoutMs, before);
    } finally {
      if (this.busy) {
        this.busy = false;
        this.port.busyChanged();
      }
    }
    if (outcome.code === 'TIMEOUT_STATE_UPDATE' && action.type === 'tool.call') {
      // A host that never sends (or garbles) the update after a call costs a resync on every call: said, so it is seen.
      this.port.log(`agent: no usable state.updated after ${action.toolName}; read the state with snapshot.get`);
    }
    if (observed) observer?.called?.(observed, outcome, execution.context());
    this.port.settled();
    episodes.outcome({
      actionId: sent.actionId,
      ok: outcome.ok,
      replan: outcome.replan,
      ...(outcome.code && { code: outcome.code }),
      ...(outcome.detail && { detail: outcome.detail }),
      fingerprint: fingerprintOf(execution.context().uiSpec),
    });
    return outcome;
  }
}

/** Waits `ms`, or less when `signal` aborts meanwhile. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** The label of the item a tool call's `itemId` names on the stage on screen. */
function labelled(context: PerceivedContext, params: Record<string, unknown>): { itemLabel?: string } {
  const [id] = idsOfCall(params);
  const item = context.uiSpec?.items.find((i) => i.id === id);
  return item ? { itemLabel: String(item.value) } : {};
}
