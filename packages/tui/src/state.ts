import type { AgentEvent, RunStatus } from '@usher/protocol/stdio';
import type { RuntimeNotification } from './protocol.ts';

/**
 * What the screen shows, as data: the live run (for the status line) and the transcript, an
 * append-only list of entries. The functions here turn notifications into what the spec's run
 * visibility asks: the tool and step in progress, the last step with ok/err and duration, text,
 * the final answer, and errors. They return a new state; only the per-run step trackers inside
 * it are updated in place (they are never rendered).
 */

/** Where the live run stands; `starting` waits for run.start's answer, `cancelling` for the runtime to confirm. */
export type Phase =
  | 'idle'
  | 'starting'
  | 'running'
  | 'awaiting_ui'
  | 'cancelling'
  | 'completed'
  | 'error'
  | 'cancelled';

export interface StepView {
  number: number;
  /** The tool called in this step (empty until its tool_call arrives). */
  tool: string;
  /** How the runtime names the call, e.g. `select · Orbital Drift`. */
  label: string;
  /** Why the agent takes the step. */
  title: string;
  /** Set once the step is complete. */
  ok?: boolean;
  durationMs?: number;
  /** What went wrong, from an erroneous tool_result. */
  detail?: string;
}

export interface RunView {
  /** Null until run.start answers. */
  id: string | null;
  phase: Phase;
  /** The tool of the latest tool_call. */
  tool: string | null;
  /** The latest step number. */
  step: number;
  /** From run.context, 0–100; null until the runtime says. */
  contextLeft: number | null;
  /** A step started and not complete. */
  current: StepView | null;
  /** The last complete step. */
  last: StepView | null;
  /** The terminal status's message. */
  message?: string;
}

export type Entry = { id: number } & (
  | { kind: 'user'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'reasoning'; text: string }
  | { kind: 'step'; step: StepView }
  | { kind: 'final'; text: string }
  | { kind: 'end'; status: 'completed' | 'error' | 'cancelled'; steps: number; message?: string }
  | { kind: 'error'; text: string }
  | { kind: 'notice'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'row'; cells: Array<{ text: string; tone?: Tone }> }
);

/** The few colours the screen uses, by meaning. */
export type Tone = 'ok' | 'error' | 'warn' | 'dim' | 'accent';

export type EntryInput = Entry extends infer E ? (E extends Entry ? Omit<E, 'id'> : never) : never;

/** The steps of one run as they arrive, keyed by step id (a replayed run has its own). */
interface StepTracker {
  open: Map<string, StepView>;
  lastOpen: string | null;
  ended: boolean;
}

export interface ViewState {
  run: RunView | null;
  entries: Entry[];
  /**
   * The latest `text` of a run, held in the live area until the run's next event: a `final`
   * that says the same replaces it, so the answer is not printed twice.
   */
  held: { runId: string; text: string } | null;
  trackers: Map<string, StepTracker>;
  nextId: number;
}

export function initialState(): ViewState {
  return { run: null, entries: [], held: null, trackers: new Map(), nextId: 1 };
}

/** Writes the held text into the transcript. */
export function flushHeld(state: ViewState): ViewState {
  if (!state.held) return state;
  return append({ ...state, held: null }, { kind: 'text', text: state.held.text });
}

/** Appends transcript entries (the transcript never changes what it has shown). */
export function append(state: ViewState, ...entries: EntryInput[]): ViewState {
  if (entries.length === 0) return state;
  let nextId = state.nextId;
  const added = entries.map((e) => ({ ...e, id: nextId++ }) as Entry);
  return { ...state, entries: [...state.entries, ...added], nextId };
}

/** The operator gave an instruction: a run is starting. */
export function runRequested(state: ViewState, text: string): ViewState {
  const run: RunView = {
    id: null,
    phase: 'starting',
    tool: null,
    step: 0,
    contextLeft: null,
    current: null,
    last: null,
  };
  return append({ ...state, run }, { kind: 'user', text });
}

/** run.start answered. */
export function runStarted(state: ViewState, runId: string): ViewState {
  if (!state.run || state.run.id !== null) return state;
  const trackers = new Map(state.trackers);
  if (!trackers.has(runId)) trackers.set(runId, { open: new Map(), lastOpen: null, ended: false });
  return { ...state, trackers, run: { ...state.run, id: runId } };
}

/** run.start failed: the run never existed. */
export function runFailedToStart(state: ViewState, message: string): ViewState {
  if (!state.run) return state;
  return append({ ...state, run: { ...state.run, phase: 'error', message } }, { kind: 'error', text: message });
}

export function cancelRequested(state: ViewState): ViewState {
  if (!state.run || !isActive(state.run.phase)) return state;
  return { ...state, run: { ...state.run, phase: 'cancelling' } };
}

function isTerminal(status: RunStatus): boolean {
  return status === 'completed' || status === 'error' || status === 'cancelled';
}

/** True while a run is in progress (a new instruction must wait). */
export function isActive(phase: Phase | undefined): boolean {
  return phase === 'starting' || phase === 'running' || phase === 'awaiting_ui' || phase === 'cancelling';
}

/**
 * A notification from the runtime. Events of the live run move the status line; events of other
 * runs (a `session.history` replay) only add to the transcript.
 */
export function applyNotification(state: ViewState, notification: RuntimeNotification): ViewState {
  const runId = notification.params.run_id;
  let next = state;
  // Notifications that arrive before run.start's answer belong to the run being started.
  if (next.run && next.run.id === null && next.run.phase !== 'error' && !next.trackers.has(runId)) {
    next = runStarted(next, runId);
  }
  const live = next.run?.id === runId ? next.run : null;
  const tracker = next.trackers.get(runId) ?? { open: new Map(), lastOpen: null, ended: false };
  // Nothing counts after a run's terminal status (spec §5.3).
  if (tracker.ended) return next;
  if (!next.trackers.has(runId)) next = { ...next, trackers: new Map(next.trackers).set(runId, tracker) };
  if (notification.method === 'agent.event') {
    const { event } = notification.params;
    if (event.type === 'text') return { ...flushHeld(next), held: { runId, text: event.content } };
    if (event.type === 'final' && next.held?.runId === runId && next.held.text === event.content) {
      next = { ...next, held: null };
    }
  }
  // A status that the run goes on with (awaiting a dialog, say) keeps the text held: a `final`
  // after the dialog may still repeat it.
  const goesOn =
    notification.method === 'run.context' ||
    (notification.method === 'run.status' && !isTerminal(notification.params.status));
  if (!goesOn) next = flushHeld(next);

  switch (notification.method) {
    case 'run.context':
      return live ? withRun(next, { contextLeft: notification.params.context_left_percent }) : next;
    case 'run.status':
      return applyStatus(next, tracker, live, notification.params.status, notification.params.message);
    case 'agent.event':
      return applyEvent(next, tracker, live, notification.params.event);
  }
}

function applyStatus(
  state: ViewState,
  tracker: StepTracker,
  live: RunView | null,
  status: RunStatus,
  message: string | undefined,
): ViewState {
  if (!live) return state;
  if (status === 'running' || status === 'awaiting_ui') {
    // A cancel asked for stays visible until the runtime confirms it.
    return live.phase === 'cancelling' ? state : withRun(state, { phase: status });
  }
  tracker.ended = true;
  const ended = withRun(state, { phase: status, current: null, ...(message !== undefined && { message }) });
  return append(ended, { kind: 'end', status, steps: live.step, ...(message !== undefined && { message }) });
}

function applyEvent(state: ViewState, tracker: StepTracker, live: RunView | null, event: AgentEvent): ViewState {
  switch (event.type) {
    case 'hidden_user_message':
      return append(state, { kind: 'user', text: event.content });
    case 'text': // held by applyNotification
      return state;
    case 'reasoning':
      return append(state, { kind: 'reasoning', text: event.content });
    case 'final':
      return append(state, { kind: 'final', text: event.content });
    case 'compaction_start':
      return append(state, { kind: 'notice', text: 'compacting the context…' });
    case 'compaction_complete':
      return append(state, {
        kind: 'notice',
        text: event.compacted ? 'context compacted' : 'context left as it was',
      });
    case 'step_start': {
      const step: StepView = { number: event.step_number, tool: '', label: '', title: event.title };
      tracker.open.set(event.step_id, step);
      tracker.lastOpen = event.step_id;
      return live ? withRun(state, { step: event.step_number, current: step }) : state;
    }
    case 'tool_call': {
      const step = tracker.lastOpen ? tracker.open.get(tracker.lastOpen) : undefined;
      if (step) {
        step.tool = event.tool;
        step.label = event.display_name ?? event.tool;
      }
      return live ? withRun(state, { tool: event.tool, ...(step && { current: { ...step } }) }) : state;
    }
    case 'tool_result': {
      const step = tracker.lastOpen ? tracker.open.get(tracker.lastOpen) : undefined;
      if (step && event.is_error) step.detail = errorDetail(event.result);
      return state;
    }
    case 'step_complete': {
      const open = tracker.open.get(event.step_id);
      tracker.open.delete(event.step_id);
      const step: StepView = {
        ...(open ?? { number: live?.step ?? 0, tool: '', label: '', title: '' }),
        ok: event.status === 'completed',
        durationMs: event.duration_ms,
      };
      const shown = append(state, { kind: 'step', step });
      return live ? withRun(shown, { last: step, current: null }) : shown;
    }
  }
}

function withRun(state: ViewState, patch: Partial<RunView>): ViewState {
  return state.run ? { ...state, run: { ...state.run, ...patch } } : state;
}

/** A short reason out of a tool_result's `result`: its `code` and `detail`/`message` when it has them. */
export function errorDetail(result: unknown): string {
  if (typeof result === 'string') return result;
  if (typeof result === 'object' && result !== null) {
    const r = result as Record<string, unknown>;
    const parts = [r.code, r.detail ?? r.message ?? r.error].filter((p): p is string => typeof p === 'string');
    if (parts.length > 0) return parts.join(': ');
  }
  const json = JSON.stringify(result) ?? '';
  return json.length > 100 ? `${json.slice(0, 99)}…` : json;
}
