import { isPlainYes } from '@usher/booking';
import type { Condition } from '../study-file/schema.ts';

/**
 * The collaboration measures of one participant task (docs/data-dictionary.md, "collaboration"),
 * computed from its study-log records alone: the export writes them, the console shows them live
 * and `usher pilot` reports them, all through this one function, so the three agree and an old
 * log gives the same numbers. A measure the task's condition has no feature for is `null` (empty),
 * never 0.
 */

/** One study-log record, as the measures read it; `at` is its timestamp in epoch milliseconds. */
export interface MeasureRecord {
  at: number;
  direction: string;
  type: string;
  peer?: string | null;
  /** The record's payload; a `state.updated` needs only `source`, `action.toolName` and `uiSpec.stage`/`uiSpec.state.booking`. */
  payload: unknown;
}

/** What the task's condition offers, which decides which measures apply (read from the study file). */
export interface ConditionFeatures {
  /** An agent works beside the participant (`agent` other than `none`). */
  agent: boolean;
  /** The page shows the chat. */
  chat: boolean;
  /** The participant's pause control (`controls.pause`, on by default with an agent). */
  pause: boolean;
  /** The participant's take-over control (`controls.takeOver`, on by default with an agent). */
  takeOver: boolean;
  /** The agent proposes each step for approval (`guard: each-step`). */
  proposals: boolean;
  /** The condition scripts agent mistakes in this task (`mistakes` naming it). */
  mistakes: boolean;
}

export interface TaskMeasures {
  /** Seconds from the task's start to the booking judged (the last submitted), or null. */
  timeToBookingS: number | null;
  agentActions: number;
  participantActions: number;
  experimenterActions: number;
  /** The three above added up. */
  actions: number;
  /** Each side's share of `actions` (0..1); null when nobody acted. */
  agentShare: number | null;
  participantShare: number | null;
  experimenterShare: number | null;
  /** Seconds from the task's start to the agent's first action on the page; null without one. */
  timeToAgentFirstActionS: number | null;
  pauses: number | null;
  takeOvers: number | null;
  rejectedProposals: number | null;
  chatCorrections: number | null;
  undoneAgentSelections: number | null;
  /** The interventions that apply, added up; null when none applies (no agent). */
  interventions: number | null;
  /** Seconds from the task's start to the first intervention; null without one. */
  timeToFirstInterventionS: number | null;
  /** The agent's chat messages holding a question mark. */
  agentQuestions: number | null;
  /** Runs of consecutive chat messages from the participant, and from the agent's side (agent or experimenter). */
  participantTurns: number | null;
  agentTurns: number | null;
  /** Experimenters taking the room over in the console (`console.take-over`). */
  experimenterTakeOvers: number;
  /** Scripted mistakes (`agent.mistake`) the booking no longer held, and those it still held. */
  mistakesCaught: number | null;
  mistakesMissed: number | null;
  /** Undone agent selections of a value that was not a scripted mistake (under-reliance). */
  overriddenCorrect: number | null;
  /** The booking summary the confirm stage showed before the judged submission, or null. */
  submittedBooking: unknown;
}

/** The booking's parts, as the overrides compare them. */
const PARTS = ['movie', 'theater', 'date', 'showing', 'seats', 'tickets'] as const;
type Part = (typeof PARTS)[number];
type Parts = Record<Part, string | null>;

/** The booking part a scripted mistake's kind is about (packages/study/README.md, "Scripted agent mistakes"). */
const KIND_PART: Record<string, Part> = { 'later-showing': 'showing', 'next-day': 'date', 'seats-apart': 'seats' };

/** A scripted mistake as the log records it (`agent.mistake`): the part it is about and what the agent chose. */
interface Mistake {
  /** The record's place in the task's records. */
  at: number;
  part: Part;
  chosen: string | null;
}

const obj = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The features of `condition` for `taskId`: its controls, its guard, its scripted mistakes in that task. */
export function conditionFeatures(condition: Condition | undefined, taskId: string): ConditionFeatures {
  if (!condition)
    return { agent: false, chat: false, pause: false, takeOver: false, proposals: false, mistakes: false };
  const agent = condition.agent !== 'none';
  return {
    agent,
    chat: agent && condition.chat !== false,
    pause: agent && condition.controls.pause,
    takeOver: agent && condition.controls.takeOver,
    proposals: agent && condition.guard === 'each-step',
    mistakes: agent && condition.mistakes.some((m) => m.task === taskId),
  };
}

/** Who did it, as the export's `events.actor` says (docs/data-dictionary.md). */
function actorOf(r: MeasureRecord, caller: string | null): string {
  const p = obj(r.payload);
  const experimenter = (peer: string | null | undefined) => (peer ?? '').startsWith('experimenter-');
  if (r.direction === 'in') return experimenter(r.peer) ? 'experimenter' : 'agent';
  if (r.type === 'participant.action' || r.type === 'user.message') return 'participant';
  if (r.type === 'state.updated') {
    if (p?.source === 'user') return 'participant';
    if (p?.source === 'agent') return experimenter(caller) ? 'experimenter' : 'agent';
    return 'host';
  }
  if (r.direction === 'out') return 'host';
  return r.type.startsWith('study.') ? 'server' : 'relay';
}

function partsOf(booking: unknown): Parts {
  const b = obj(booking);
  const id = (v: unknown) => str(obj(v)?.id);
  const list = (v: unknown) => (Array.isArray(v) && v.length > 0 ? JSON.stringify(v) : null);
  return {
    movie: id(b?.movie),
    theater: id(b?.theater),
    date: str(b?.date),
    showing: id(b?.showing),
    seats: list(b?.seats),
    tickets: list(b?.tickets),
  };
}

/** A mistake's choice as {@link partsOf} gives the part: the showing's id, the day, or the seats (sorted, as JSON). */
function mistakeOf(at: number, payload: Record<string, unknown> | null): Mistake | null {
  const kind = str(payload?.kind) ?? '';
  const chosen = obj(payload?.chosen);
  const part = KIND_PART[kind] ?? (chosen?.showing ? 'showing' : chosen?.date ? 'date' : 'seats');
  if (part === 'showing') return { at, part, chosen: str(chosen?.showing) };
  if (part === 'date') return { at, part, chosen: str(chosen?.date) };
  const seats = Array.isArray(chosen?.seats) ? chosen.seats.filter((x): x is string => typeof x === 'string') : [];
  return { at, part: 'seats', chosen: seats.length > 0 ? JSON.stringify([...seats].sort()) : null };
}

/** Whether a booking (its parts) still holds the mistaken choice: that showing, that day, exactly those seats. */
function holds(parts: Parts, m: Mistake): boolean {
  const value = parts[m.part];
  if (m.part !== 'seats' || value === null) return value === m.chosen;
  return JSON.stringify((JSON.parse(value) as string[]).slice().sort()) === m.chosen;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * The measures of one participant task from its records, in log order (its sessions by start,
 * each session's records by `eventIndex`). Definitions: docs/data-dictionary.md, "collaboration".
 */
export function measureTask(records: readonly MeasureRecord[], features: ConditionFeatures): TaskMeasures {
  const start = records.find((r) => r.type === 'study.task')?.at ?? records[0]?.at ?? 0;
  const since = (at: number | null) => (at === null ? null : round3((at - start) / 1000));
  let caller: string | null = null;
  let agentActions = 0;
  let participantActions = 0;
  let experimenterActions = 0;
  let firstAgentAction: number | null = null;
  let pauses = 0;
  let takeOvers = 0;
  let rejected = 0;
  let corrections = 0;
  let undone = 0;
  let overriddenCorrect = 0;
  let experimenterTakeOvers = 0;
  let firstIntervention: number | null = null;
  let agentQuestions = 0;
  let participantTurns = 0;
  let agentTurns = 0;
  let lastSide: 'participant' | 'agent' | null = null;
  /** The agent's question the participant has not answered yet, and the stage it was asked on. */
  let openQuestion: { stage: string | null } | null = null;
  let stage: string | null = null;
  // The booking as the overrides see it: the states with a booking stage, each part's last value and who set it.
  let prev: Parts | null = null;
  const setter: Record<Part, string | null> = {
    movie: null,
    theater: null,
    date: null,
    showing: null,
    seats: null,
    tickets: null,
  };
  let prevStage: string | null | undefined;
  let prevBooking: unknown = null;
  let lastParts: Parts | null = null;
  let submitted: { at: number; parts: Parts; booking: unknown } | null = null;
  const mistakes: Mistake[] = [];
  // Each state with a booking stage (its parts) or without (null), who caused it, and, for a
  // submission, the booking the confirm stage showed: what a mistake is judged against.
  const states: Array<{ at: number; actor: string; parts: Parts | null; submitted: Parts | null }> = [];
  const intervene = (at: number) => {
    if (firstIntervention === null) firstIntervention = at;
  };
  const chat = (side: 'participant' | 'agent') => {
    if (side !== lastSide) {
      if (side === 'participant') participantTurns += 1;
      else agentTurns += 1;
    }
    lastSide = side;
  };

  let lastFromAgent: string | null = null;
  for (const [index, r] of records.entries()) {
    const p = obj(r.payload);
    const from = lastFromAgent;
    if (r.direction === 'in' && ['tool.call', 'agent.message', 'agent.proposal'].includes(r.type))
      lastFromAgent = r.type;
    if (r.type === 'tool.call' && r.direction === 'in') caller = r.peer ?? null;
    const actor = actorOf(r, caller);
    if (r.type === 'tool.call' && r.direction === 'in') {
      const tool = str(p?.toolName);
      if (tool === 'postMessage') {
        const text = str(obj(p?.params)?.text) ?? '';
        chat('agent');
        if (actor === 'agent' && text.includes('?')) {
          agentQuestions += 1;
          openQuestion = { stage };
        }
      } else if (actor === 'agent') {
        agentActions += 1;
        firstAgentAction ??= r.at;
      } else {
        experimenterActions += 1;
      }
    } else if (r.type === 'agent.message' && r.direction === 'in') {
      chat('agent');
      // The chat line that asks about a step just proposed ("Approve or reject?") is the proposal's, not a question.
      const prompt = from === 'agent.proposal';
      if (actor === 'agent' && !prompt && (str(p?.text) ?? '').includes('?')) {
        agentQuestions += 1;
        openQuestion = { stage };
      }
    } else if (r.type === 'user.message') {
      chat('participant');
      const text = str(p?.text) ?? '';
      // A correction: after the agent began acting, anything but a plain yes, unless it answers the
      // agent's question asked before the confirm stage (an answer, not a correction).
      const answer = openQuestion !== null && openQuestion.stage !== 'confirm';
      if (firstAgentAction !== null && !isPlainYes(text) && !answer) {
        corrections += 1;
        intervene(r.at);
      }
      openQuestion = null;
    } else if (r.type === 'participant.action') {
      participantActions += 1;
    } else if (r.type === 'participant.control' && p?.by !== 'experimenter') {
      if (p?.control === 'pause') {
        pauses += 1;
        intervene(r.at);
      } else if (p?.control === 'take-over') {
        takeOvers += 1;
        intervene(r.at);
      }
    } else if (r.type === 'participant.proposal' && p?.decision === 'reject') {
      rejected += 1;
      intervene(r.at);
    } else if (r.type === 'console.take-over') {
      experimenterTakeOvers += 1;
    } else if (r.type === 'agent.mistake') {
      const m = mistakeOf(index, p);
      if (m) mistakes.push(m);
    } else if (r.type === 'state.updated') {
      const ui = obj(p?.uiSpec);
      const st = str(ui?.stage);
      const booking = obj(ui?.state)?.booking;
      // A submission: a state without a booking stage right after one on the confirm stage.
      const submits = st === null && prevStage === 'confirm' && lastParts !== null;
      if (submits && lastParts) submitted = { at: r.at, parts: lastParts, booking: prevBooking };
      states.push({
        at: index,
        actor,
        parts: st === null ? null : partsOf(booking),
        submitted: submits ? lastParts : null,
      });
      prevStage = st;
      if (st !== null) {
        stage = st;
        const parts = partsOf(booking);
        const changed = PARTS.filter((k) => parts[k] !== (prev === null ? null : prev[k]));
        const tool = str(obj(p?.action)?.toolName);
        if (actor === 'participant' && (tool === 'select' || tool === 'setQuantity') && prev !== null) {
          const before = prev;
          const undoneParts = changed.filter((k) => before[k] !== null && setter[k] === 'agent');
          if (undoneParts.length > 0) {
            undone += 1;
            intervene(r.at);
            const mistaken = (k: Part) => mistakes.some((m) => m.part === k && holds(before, m));
            if (undoneParts.some((k) => !mistaken(k))) overriddenCorrect += 1;
          }
        }
        for (const k of changed) setter[k] = actor;
        prev = parts;
        lastParts = parts;
        prevBooking = booking ?? null;
      }
    }
  }

  const actions = agentActions + participantActions + experimenterActions;
  const share = (n: number) => (actions === 0 ? null : round3(n / actions));
  const f = features;
  const hasType = (type: string) => records.some((r) => r.type === type);
  const controlled = (control: string) =>
    records.some((r) => r.type === 'participant.control' && obj(r.payload)?.control === control);
  const pauseApplies = f.pause || controlled('pause');
  const takeOverApplies = f.takeOver || controlled('take-over');
  const proposalsApply = f.proposals || hasType('agent.proposal') || hasType('participant.proposal');
  const mistakesApply = f.mistakes || mistakes.length > 0;
  const agentApplies = f.agent || agentActions > 0;
  const chatApplies = f.chat || hasType('user.message');
  const parts = [
    pauseApplies ? pauses : null,
    takeOverApplies ? takeOvers : null,
    proposalsApply ? rejected : null,
    agentApplies && chatApplies ? corrections : null,
    agentApplies ? undone : null,
  ];
  const applying = parts.filter((n): n is number => n !== null);
  // Caught: the first booking submitted after the mistake no longer holds it; with none submitted
  // after it, a state the participant caused no longer held it (as participant_tasks.mistakes_caught).
  const caught = mistakes.filter((m) => {
    const later = states.filter((s) => s.at > m.at);
    const submit = later.find((s) => s.submitted !== null);
    if (submit?.submitted) return !holds(submit.submitted, m);
    return later.some((s) => s.actor === 'participant' && s.parts !== null && !holds(s.parts, m));
  }).length;
  return {
    timeToBookingS: since((submitted as { at: number } | null)?.at ?? null),
    agentActions,
    participantActions,
    experimenterActions,
    actions,
    agentShare: share(agentActions),
    participantShare: share(participantActions),
    experimenterShare: share(experimenterActions),
    timeToAgentFirstActionS: since(firstAgentAction),
    pauses: parts[0] ?? null,
    takeOvers: parts[1] ?? null,
    rejectedProposals: parts[2] ?? null,
    chatCorrections: parts[3] ?? null,
    undoneAgentSelections: parts[4] ?? null,
    interventions: applying.length > 0 ? applying.reduce((a, b) => a + b, 0) : null,
    timeToFirstInterventionS: since(firstIntervention),
    agentQuestions: agentApplies && chatApplies ? agentQuestions : null,
    participantTurns: chatApplies ? participantTurns : null,
    agentTurns: agentApplies && chatApplies ? agentTurns : null,
    experimenterTakeOvers,
    mistakesCaught: mistakesApply ? caught : null,
    mistakesMissed: mistakesApply ? mistakes.length - caught : null,
    overriddenCorrect: mistakesApply ? overriddenCorrect : null,
    submittedBooking: (submitted as { booking: unknown } | null)?.booking ?? null,
  };
}
