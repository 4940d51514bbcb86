import type { UiSpec } from '@usher/protocol';
import { contextKeyOf } from '../memory/fingerprint.ts';
import type { PlannerInput } from './deterministic.ts';
import type { NavigationPlan } from './plan.ts';
import type { PreferenceModel, StageDecision } from './solver/index.ts';
import type { SurveyMoves } from './survey-step.ts';

/*
 * Assist mode's look ahead. The movie stage shows what a film is, not where or when it plays, so
 * "what's on in 3D at the Old Mill on Thursday?" cannot be answered from it: marking the films that
 * fit what the list shows marks films that do not play there. When the participant's wishes depend
 * on a theater, a distance, a format, a daytime window or an end-time limit (which rule out many
 * films; a day alone or an evening rarely does, and is only said in the chat), the agent says so in
 * the chat, walks each of the films that fit best (up to ten, within a step budget) forward as far as
 * the seat stage the way autopilot would (hard wishes only; a film that leads nowhere is left), comes
 * back, and marks only the films with a showing that fits, with no film selected where the host can
 * undo a choice (`clearSelection`). It never chooses seats or books. If the participant acts
 * meanwhile, the look ahead ends: their choice stands.
 */

/**
 * At most this many films are looked at, and the look ahead takes at most {@link MAX_PROBE_STEPS}
 * steps: a film that does not play at the theater asked for costs three (choose it, go on, come
 * back), one walked to its seats a dozen.
 */
export const MAX_PROBED = 10;
export const MAX_PROBE_STEPS = 90;

export interface AssistProbe {
  /** Film item ids to look at, best first by the solver. */
  candidates: string[];
  labels: Map<string, string>;
  /** Whether each film looked at has a showing that fits. */
  results: Map<string, boolean>;
  /** The film being looked at, and whether the look has left the movie stage with it. */
  current: string | null;
  /** Steps taken so far. */
  steps: number;
  away: boolean;
  done: boolean;
}

/** What the participant wished for that the movie stage cannot show; `places` not yet matched to a theater. */
export function judgedLater(model: PreferenceModel, places: readonly string[] = []): string[] {
  const kinds = new Set(model.hard.map((c) => c.kind));
  const unseen: string[] = [];
  if (kinds.has('theater') || kinds.has('distance') || places.length > 0) unseen.push('where each film plays');
  if (kinds.has('date') || kinds.has('startTime') || kinds.has('endTime') || kinds.has('format'))
    unseen.push('when and in which format');
  return unseen;
}

/** The films found to have a showing that fits, once the look ahead is done; undefined while none ran. */
export function probedFilms(input: PlannerInput): ReadonlySet<string> | undefined {
  const probe = input.exploration.probe;
  if (!probe?.done) return undefined;
  return new Set([...probe.results].filter(([, fits]) => fits).map(([film]) => film));
}

export interface ProbeMoves extends SurveyMoves {
  /** A line in the chat, after which the agent goes on. */
  say(text: string, reason: string): NavigationPlan;
  /** Undoes the stage's choice, where the host offers `clearSelection`; undefined where it does not. */
  clear(reason: string): NavigationPlan | undefined;
}

/**
 * The look ahead's next step on any stage, or undefined when none runs (the stage is decided as
 * assist mode always does). `autopilot` plans a stage as autopilot would, under hard wishes only.
 */
export function assistProbe(
  input: PlannerInput,
  spec: UiSpec,
  decision: StageDecision,
  moves: ProbeMoves,
  autopilot: (input: PlannerInput) => NavigationPlan,
): NavigationPlan | undefined {
  const { exploration } = input;
  const probe = exploration.probe;
  if (probe && !probe.done && participantActed(input, spec)) probe.done = true;
  if (spec.stage !== 'movie') {
    if (!probe) return lookAgain(input, spec, moves);
    if (probe.done || !probe.current) return undefined;
    probe.away = true;
    probe.steps += 1;
    const film = probe.current;
    const label = probe.labels.get(film) ?? film;
    if (spec.stage === 'seat' || spec.stage === 'ticket' || spec.stage === 'confirm') {
      probe.results.set(film, true);
      return moves.back('movie', `${label} has a showing that fits; looking at the next film.`);
    }
    const step = autopilot({ ...input, mode: 'autopilot', model: { ...input.model, soft: [] } });
    if (step.stop || step.nextAction.type !== 'tool.call') {
      probe.results.set(film, false);
      return moves.back('movie', `${label} has no showing that fits; looking at the next film.`);
    }
    return step;
  }
  if (probe?.done) return undefined;
  if (!probe) return startProbe(input, spec, decision, moves);
  // Back from a film: one that led nowhere was left by going back (it is marked tried).
  const dead = input.memory.tried('movie', contextKeyOf('movie', spec.state.booking));
  if (probe.current && probe.away && !probe.results.has(probe.current)) {
    probe.results.set(probe.current, !dead.has(probe.current));
  }
  const next = probe.candidates.find((film) => !probe.results.has(film) && !dead.has(film));
  if (next && probe.steps < MAX_PROBE_STEPS) {
    probe.steps += 1;
    probe.current = next;
    probe.away = false;
    return moves.selectOrNext(next, `${probe.labels.get(next)}: looking at where and when it plays`);
  }
  probe.done = true;
  probe.current = null;
  // The films are the participant's to choose: the film the look ahead left selected is unselected
  // where the host can undo a choice, so the page shows only the marks.
  const left = spec.state.selected;
  if (left !== undefined && !input.participantChoices.has(left)) {
    const cleared = moves.clear('I only looked at the films; the choice is yours');
    if (cleared) return cleared;
  }
  // Elsewhere the page is left on a film that fits, never on one the look ahead ruled out.
  const best = probe.candidates.find((film) => probe.results.get(film));
  if (best && spec.state.selected !== best) {
    return moves.selectOrNext(best, `${probe.labels.get(best)} has a showing that fits what you asked for`);
  }
  return undefined;
}

function startProbe(
  input: PlannerInput,
  spec: UiSpec,
  decision: StageDecision,
  moves: ProbeMoves,
): NavigationPlan | undefined {
  if (decision.kind !== 'options') return undefined;
  const selected = spec.state.selected;
  if (selected !== undefined && input.participantChoices.has(selected)) return undefined;
  // A film named is the participant's choice; assist mode selects it and marks on the next stages.
  if (input.model.hard.some((c) => c.kind === 'title')) return undefined;
  // What the list cannot show is unknown, not a fit: a film marked must have a showing that fits
  // every wish the participant said, where it plays and when included ("what's on tomorrow evening,
  // rated 4 or more" marks no film without an evening showing tomorrow). The look ahead takes the
  // page away for a while, and says so first.
  const places = input.placesToMatch ?? [];
  const unseen = judgedLater(input.model, places);
  if (unseen.length === 0) return undefined;
  const dead = input.memory.tried('movie', contextKeyOf('movie', spec.state.booking));
  const options = decision.options.filter((o) => !dead.has(o.itemId)).slice(0, MAX_PROBED);
  if (options.length < 2) return undefined;
  input.exploration.probe = {
    candidates: options.map((o) => o.itemId),
    labels: new Map(options.map((o) => [o.itemId, o.label])),
    results: new Map(),
    current: null,
    steps: 0,
    away: false,
    done: false,
  };
  return moves.say(
    `The film list does not show ${unseen.join(' or ')}, so I will look at the ${options.length} films that fit best; the page will move for a moment, then I will mark the ones that fit.`,
    'the movie stage cannot show what the wishes depend on',
  );
}

/**
 * The wishes changed while the page held a film the agent chose itself (a look ahead was under way,
 * or left its best film on a host that cannot undo a choice): that film says nothing about the new
 * wishes, so the page goes back to the film list to look again. A film the participant chose or
 * named stays.
 */
function lookAgain(input: PlannerInput, spec: UiSpec, moves: ProbeMoves): NavigationPlan | undefined {
  const film = spec.state.booking?.movie;
  if (!film || input.participantChoices.has(film.id)) return undefined;
  const named = input.model.hard.some(
    (c) => c.kind === 'title' && (c.is ?? []).some((t) => t.toLowerCase() === film.title?.toLowerCase()),
  );
  if (named || judgedLater(input.model, input.placesToMatch).length === 0) return undefined;
  return moves.back('movie', `Your wishes changed, so I am going back to the film list to look again.`);
}

/** The participant chose something themselves since the look ahead began. */
function participantActed(input: PlannerInput, spec: UiSpec): boolean {
  const selected = spec.state.selected;
  return (
    (selected !== undefined && input.participantChoices.has(selected)) ||
    (spec.state.selectedList ?? []).some((id) => input.participantChoices.has(id))
  );
}
