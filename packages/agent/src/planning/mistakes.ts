import { isPlainYes } from '@usher/booking';
import { STAGES, type UiSpec } from '@usher/protocol';
import type { PlannerInput } from './deterministic.ts';
import type { NavigationPlan, PlannedAction } from './plan.ts';
import { decideStage, type PreferenceModel } from './solver/index.ts';
import { together } from './solver/judge.ts';
import { readLayout, readSeats } from './solver/seats.ts';
import { idsOfCall, listKeyOf, selectParams } from './tool-shapes.ts';

/*
 * Scripted mistakes (a study's condition declares them, packages/study/README.md): on a stage, the
 * agent chooses something other than what it would, once, without saying so, and then goes on as
 * if it were right until the participant speaks or changes it. It is a wrapper around a planner,
 * so the planner itself is untouched and an agent given no script behaves exactly as before.
 */

export type MistakeKind = 'later-showing' | 'next-day' | 'seats-apart';

/** One mistake to make, as the study file declares it for the task at hand. */
export interface ScriptedMistake {
  id: string;
  kind: MistakeKind;
  stage: 'time' | 'date' | 'seat';
  /** `later-showing`: how much later than the right showing the wrong one starts (60 by default). */
  minutes?: number;
}

/** What a choice was: a showing (time stage), a day (date stage) or seats (seat stage). */
export type MistakeChoice = { showing: string; label: string } | { date: string; label: string } | { seats: string[] };

/** A mistake as made: the log's `agent.mistake` payload. `truth` is what the agent would have chosen. */
export interface MistakeRecord {
  mistakeId: string;
  kind: MistakeKind;
  stage: ScriptedMistake['stage'];
  chosen: MistakeChoice;
  truth: MistakeChoice;
}

export interface MistakeScript {
  /** The mistakes to make in this task, each at most once. */
  mistakes: readonly ScriptedMistake[];
  /** Ids of those already made in this task (by an earlier run of the agent): not made again. */
  made?: ReadonlySet<string>;
  /**
   * Told of each mistake just before the action that makes it is sent (the study log's record). A
   * promise holds the action back until it settles: a supervisor in another thread acknowledges
   * the record written before the agent goes on.
   */
  onMistake: (record: MistakeRecord) => void | Promise<void>;
}

/** The wishes a mistake of each kind breaks, which the agent stops checking while the mistake stands. */
const OVERLOOKED: Record<MistakeKind, readonly string[]> = {
  'later-showing': ['startTime', 'endTime'],
  'next-day': ['date'],
  'seats-apart': ['adjacent'],
};

const DEFAULT_MINUTES = 60;

interface Standing {
  mistake: ScriptedMistake;
  chosen: MistakeChoice;
  /** The participant wrote since (other than a plain yes): from then on the agent judges everything as usual. */
  heard: boolean;
  /**
   * The page has held the mistaken choice. Until it has, a plan made on the mistake's stage makes
   * it again (without a second record): the plan that made it may have been dropped unsent (the
   * page changed while it was planned, or while the record was being written in another thread).
   */
  shown: boolean;
}

type Planner = (input: PlannerInput, call?: { signal?: AbortSignal }) => NavigationPlan | Promise<NavigationPlan>;

/**
 * The scripted mistakes of one task around a planner: {@link plan} is the planner to use, and
 * {@link participantSaid} is told of the participant's words.
 */
export class ScriptedMistakes {
  private readonly pending: ScriptedMistake[];
  private readonly standing: Standing[] = [];

  constructor(
    private readonly script: MistakeScript,
    private readonly inner: Planner,
  ) {
    this.pending = script.mistakes.filter((m) => !script.made?.has(m.id));
  }

  /** The participant wrote: a mistake still standing is judged again like any other choice. */
  participantSaid(text: string): void {
    if (isPlainYes(text)) return;
    for (const s of this.standing) s.heard = true;
  }

  readonly plan = async (input: PlannerInput, call?: { signal?: AbortSignal }): Promise<NavigationPlan> => {
    const spec = input.context.uiSpec;
    if (spec) for (const s of this.standing) if (!s.shown && holds(s, spec)) s.shown = true;
    const blind = spec ? this.standing.filter((s) => !s.heard && holds(s, spec)) : [];
    const here = blind.find((s) => spec && s.mistake.stage === spec.stage);
    const unshown = spec && this.standing.find((s) => !s.heard && !s.shown && s.mistake.stage === spec.stage);
    const after = blind.filter((s) => spec && STAGES.indexOf(spec.stage) > STAGES.indexOf(s.mistake.stage));
    const model = after.length > 0 ? overlook(input.model, after) : input.model;
    const plan = await this.inner(model === input.model ? input : { ...input, model }, call);
    if (!spec) return plan;
    if (here) return keep(here, spec, input, plan);
    if (unshown) return again(unshown, spec, input, plan);
    const mistake = this.pending.find((m) => m.stage === spec.stage);
    if (!mistake) return plan;
    const made = make(mistake, spec, input, plan);
    if (!made) return plan;
    this.pending.splice(this.pending.indexOf(mistake), 1);
    this.standing.push({ mistake, chosen: made.record.chosen, heard: false, shown: false });
    await this.script.onMistake(made.record);
    return made.plan;
  };
}

/** The model without the wishes the standing mistakes break. */
function overlook(model: PreferenceModel, standing: readonly Standing[]): PreferenceModel {
  const kinds = new Set(standing.flatMap((s) => OVERLOOKED[s.mistake.kind]));
  return {
    hard: model.hard.filter((c) => !kinds.has(c.kind)),
    soft: model.soft.filter((c) => !kinds.has(c.kind)),
  };
}

/** Whether the page still holds the mistaken choice (on its stage, or in the booking after it). */
function holds(s: Standing, spec: UiSpec): boolean {
  const chosen = s.chosen;
  const booking = spec.state.booking;
  if ('showing' in chosen) {
    return spec.stage === 'time' ? spec.state.selected === chosen.showing : booking?.showing?.id === chosen.showing;
  }
  if ('date' in chosen)
    return spec.stage === 'date' ? spec.state.selected === chosen.date : booking?.date === chosen.date;
  if (spec.stage === 'seat') {
    const selected = spec.state.selectedList ?? [];
    return selected.every((id) => chosen.seats.includes(id));
  }
  const seats = booking?.seats ?? [];
  return seats.length === chosen.seats.length && seats.every((id) => chosen.seats.includes(id));
}

/** On the mistake's own stage while it stands: the mistaken choice is completed and kept, not undone. */
function keep(s: Standing, spec: UiSpec, input: PlannerInput, plan: NavigationPlan): NavigationPlan {
  const chosen = s.chosen;
  if (!('seats' in chosen)) {
    const action = plan.nextAction;
    const undoes = action.type === 'tool.call' && action.toolName === 'select';
    return undoes ? withAction(plan, tool('next', {}, `${chosenLabel(chosen)} is chosen; on to the next step`)) : plan;
  }
  const selected = spec.state.selectedList ?? [];
  const missing = chosen.seats.filter((id) => !selected.includes(id));
  const select = input.context.toolSchema.find((t) => t.name === 'select');
  if (missing.length === 0) {
    return withAction(plan, tool('next', {}, `Seats ${chosen.seats.join(', ')} are chosen; on to the next step`));
  }
  // A seat map whose select takes a list toggles several seats in one call.
  const ids = listKeyOf(select) !== undefined ? missing : missing.slice(0, 1);
  return withAction(
    plan,
    tool('select', selectParams(select, ids), `Seat${ids.length > 1 ? 's' : ''} ${ids.join(', ')}`),
  );
}

/** A mistake recorded whose choice the page has not held yet: chosen again, on its own stage. */
function again(s: Standing, spec: UiSpec, input: PlannerInput, plan: NavigationPlan): NavigationPlan {
  const chosen = s.chosen;
  if ('seats' in chosen) return keep(s, spec, input, plan);
  // Only where the plan chooses on this stage itself (as when the mistake was made).
  const action = plan.nextAction;
  if (action.type !== 'tool.call' || action.toolName !== 'select' || plan.stop) return plan;
  const id = 'showing' in chosen ? chosen.showing : chosen.date;
  const select = input.context.toolSchema.find((t) => t.name === 'select');
  return withAction(
    { ...plan, alternatives: undefined },
    tool(
      'select',
      selectParams(select, [id]),
      `${chosen.label}: the ${'showing' in chosen ? 'showing' : 'day'} I chose for you`,
    ),
  );
}

/** The mistake made instead of the plan's choice on this stage, or null when the plan chooses nothing here or no mistake fits. */
function make(
  mistake: ScriptedMistake,
  spec: UiSpec,
  input: PlannerInput,
  plan: NavigationPlan,
): { record: MistakeRecord; plan: NavigationPlan } | null {
  const action = plan.nextAction;
  if (action.type !== 'tool.call' || plan.stop) return null;
  const record = (chosen: MistakeChoice, truth: MistakeChoice): MistakeRecord => ({
    mistakeId: mistake.id,
    kind: mistake.kind,
    stage: mistake.stage,
    chosen,
    truth,
  });
  if (mistake.kind === 'seats-apart') {
    // Only when the agent starts the seats itself: the participant's own seats are never moved.
    if (!/select/i.test(action.toolName) || (spec.state.selectedList ?? []).length > 0) return null;
    const decision = decideStage(spec, input.model);
    const truth = decision.kind === 'seats' ? decision.options[0]?.seatIds : undefined;
    const apart = truth && seatsApart(spec, truth);
    if (!truth || !apart) return null;
    const standing: Standing = { mistake, chosen: { seats: apart }, heard: false, shown: false };
    return { record: record({ seats: apart }, { seats: [...truth] }), plan: keep(standing, spec, input, plan) };
  }
  if (action.toolName !== 'select') return null;
  const [truthId] = idsOfCall(action.params);
  const truthItem = spec.visibleItems.find((i) => i.id === truthId);
  if (!truthItem) return null;
  const wrong = mistake.kind === 'next-day' ? nextDay(spec, truthItem.id) : laterShowing(spec, truthItem.id, mistake);
  if (!wrong) return null;
  const choice = (id: string, label: string): MistakeChoice =>
    mistake.kind === 'next-day' ? { date: id, label } : { showing: id, label };
  const select = input.context.toolSchema.find((t) => t.name === 'select');
  const noun = mistake.kind === 'next-day' ? 'day' : 'showing';
  return {
    record: record(choice(wrong.id, wrong.value), choice(truthItem.id, truthItem.value)),
    plan: withAction(
      { ...plan, alternatives: undefined },
      tool('select', selectParams(select, [wrong.id]), `${wrong.value}: the ${noun} I chose for you`),
    ),
  };
}

const enabled = (spec: UiSpec) => spec.visibleItems.filter((i) => i.isDisabled !== true);

/** The first day offered after `truthId` (the date stage lists days in order). */
function nextDay(spec: UiSpec, truthId: string) {
  const days = enabled(spec).filter((i) => /^\d{4}-\d{2}-\d{2}$/.test(i.id));
  return days.filter((d) => d.id > truthId).sort((a, b) => (a.id < b.id ? -1 : 1))[0] ?? null;
}

/** The showing of the same format starting nearest to `minutes` after `truthId`, and later than it. */
function laterShowing(spec: UiSpec, truthId: string, mistake: ScriptedMistake) {
  const start = (i: UiSpec['items'][number]) => (typeof i.startMinutes === 'number' ? i.startMinutes : Number.NaN);
  const truth = spec.visibleItems.find((i) => i.id === truthId);
  if (!truth || !Number.isFinite(start(truth))) return null;
  const wanted = start(truth) + (mistake.minutes ?? DEFAULT_MINUTES);
  const later = enabled(spec).filter((i) => i.format === truth.format && start(i) > start(truth));
  return (
    later.sort((a, b) => Math.abs(start(a) - wanted) - Math.abs(start(b) - wanted) || start(a) - start(b))[0] ?? null
  );
}

/**
 * As many free seats as `truth`, not side by side: `truth` with its last seat moved to the
 * nearest free seat of the same row that touches none of the others (else of the nearest row).
 */
function seatsApart(spec: UiSpec, truth: readonly string[]): string[] | null {
  if (truth.length < 2) return null;
  const seats = readSeats(spec);
  const layout = readLayout(spec, seats);
  const kept = truth.slice(0, -1).flatMap((id) => seats.filter((s) => s.id === id));
  const last = seats.find((s) => s.id === truth.at(-1));
  if (!last || kept.length !== truth.length - 1) return null;
  const touches = (s: (typeof seats)[number]) =>
    kept.some((k) => k.row === s.row && Math.abs(k.number - s.number) <= 1);
  const candidates = seats
    .filter((s) => s.free && !truth.includes(s.id) && !touches(s))
    .filter((s) => !together([...kept, s], layout))
    .sort(
      (a, b) =>
        Math.abs(a.rowIndex - last.rowIndex) - Math.abs(b.rowIndex - last.rowIndex) ||
        Math.abs(a.number - last.number) - Math.abs(b.number - last.number) ||
        a.order - b.order,
    );
  const moved = candidates[0];
  return moved ? [...kept.map((s) => s.id), moved.id] : null;
}

function chosenLabel(chosen: MistakeChoice): string {
  return 'seats' in chosen ? `Seats ${chosen.seats.join(', ')}` : chosen.label;
}

function tool(toolName: string, params: Record<string, unknown>, reason: string): PlannedAction {
  return { type: 'tool.call', toolName, params, reason };
}

function withAction(plan: NavigationPlan, nextAction: PlannedAction): NavigationPlan {
  const { alternatives: _none, stop: _go, ...rest } = plan;
  return { ...rest, nextAction };
}
