import type { UiSpec } from '@usher/protocol';
import type { PreferenceModel, RankedOption } from './solver/index.ts';

/*
 * A bounded search across theaters for a wish the showtime decides ("the earliest showing", "as
 * late as possible", "as cheap as possible", "preferably in the evening"). The theater stage cannot
 * show showtimes, so choosing the first theater that fits and then its best showing is greedy:
 * another theater may do better. The planner therefore looks at the showtimes of each theater that
 * fits (at most MAX_SURVEYED), noting how well the best showing of each meets the wish, then goes
 * back and books at the theater with the best one. Each theater looked at costs a few tool calls
 * (select, next, the date, next, and two `prev`); the theater where the search ends costs none
 * extra. The search stops early when what a stage shows proves nothing can do better: a showing
 * inside the wished-for window, or one in Standard format when the wish is the cheapest (the
 * premium formats carry a surcharge, never a discount).
 */

/** At most this many theaters are looked at before choosing. */
export const MAX_SURVEYED = 4;

export type SurveyGoal = 'earliest' | 'latest' | 'cheapest' | 'window';

export interface Survey {
  goal: SurveyGoal;
  /** Theater item ids to look at, best first by the solver. */
  candidates: string[];
  /**
   * How well the best fitting showing of each theater looked at meets the goal: its start (minutes
   * from the epoch day) for earliest and latest, its format's cost rank for cheapest, the minutes
   * it lies outside the wished-for window for window; NaN when none fit.
   */
  found: Map<string, number>;
  /** Labels, for the reasons the agent gives. */
  labels: Map<string, string>;
  done: boolean;
}

const SHOWTIME_GOALS = ['earliest', 'latest', 'cheapest'] as const;

/**
 * The wish a survey serves, when the model has one and no single theater is required: the first
 * of earliest, latest and cheapest the participant named, else a soft time window. Cheapest needs
 * no survey when one format is required (the seats then decide the price).
 */
export function surveyGoal(model: PreferenceModel): SurveyGoal | null {
  const theater = model.hard.find((c) => c.kind === 'theater');
  if (theater?.kind === 'theater' && (theater.is?.length ?? 0) === 1) return null;
  const format = model.hard.find((c) => c.kind === 'format');
  const oneFormat = format?.kind === 'format' && (format.is?.length ?? 0) === 1;
  const named = model.soft.find(
    (c) => (SHOWTIME_GOALS as readonly string[]).includes(c.kind) && !(c.kind === 'cheapest' && oneFormat),
  );
  if (named) return named.kind as SurveyGoal;
  if (model.soft.some((c) => c.kind === 'startTime' || c.kind === 'endTime')) return 'window';
  return null;
}

/** Premium formats a theater may show, by what it advertises. */
const PREMIUM = /^(imax|3d|4dx|dolby|screenx|d-box)/i;

/** The amenities a theater item lists, or undefined when it lists none (nothing to go by). */
function amenitiesOf(spec: UiSpec | undefined, id: string): string[] | undefined {
  const amenities = spec?.items.find((i) => i.id === id)?.amenities;
  return Array.isArray(amenities) ? amenities.map(String) : undefined;
}

/**
 * Whether a theater may show a format the participant requires, by the amenities it lists: false
 * only when it lists amenities and none of the premium formats required (Standard needs none).
 */
export function mayShowFormat(spec: UiSpec, theaterId: string, model: PreferenceModel): boolean {
  const format = model.hard.find((c) => c.kind === 'format');
  if (format?.kind !== 'format' || !format.is || format.is.length === 0 || format.is.includes('Standard')) return true;
  const amenities = amenitiesOf(spec, theaterId);
  if (!amenities) return true;
  return format.is.some((f) => amenities.some((a) => a.toLowerCase() === f.toLowerCase()));
}

/**
 * The theaters a survey looks at: the solver's order, leaving out those that list their amenities
 * and none of the premium formats the participant requires (a theater that does not advertise IMAX
 * is not looked at for an IMAX showing; the usual backtracking still tries it if the survey finds nothing).
 */
export function startSurvey(
  goal: SurveyGoal,
  options: readonly RankedOption[],
  spec?: UiSpec,
  model?: PreferenceModel,
): Survey {
  let ordered = options.filter((o) => !model || !spec || mayShowFormat(spec, o.itemId, model));
  if (goal === 'cheapest' && spec) {
    // Format prices show only on the ticket stage, so what a survey can prove is a Standard showing
    // (no premium surcharge). A theater that advertises no premium format shows Standard only: those
    // are looked at first, then the solver's first choice; other premium theaters would cost calls
    // without telling which premium format is cheaper.
    const standardOnly = (id: string) => {
      const amenities = amenitiesOf(spec, id);
      return amenities !== undefined && !amenities.some((a) => PREMIUM.test(a));
    };
    const plain = ordered.filter((o) => standardOnly(o.itemId));
    const first = ordered.find((o) => !standardOnly(o.itemId));
    ordered = first ? [...plain, first] : plain;
  }
  const candidates = ordered.slice(0, MAX_SURVEYED);
  return {
    goal,
    candidates: candidates.map((o) => o.itemId),
    found: new Map(),
    labels: new Map(candidates.map((o) => [o.itemId, o.label])),
    done: candidates.length < 2,
  };
}

/** The next theater to look at, skipping those that led nowhere. */
export function nextToSurvey(survey: Survey, dead: ReadonlySet<string>): string | undefined {
  return survey.candidates.find((id) => !survey.found.has(id) && !dead.has(id));
}

const better = (goal: SurveyGoal, a: number, b: number) => (goal === 'latest' ? a > b : a < b);

/** The theater with the best showing found (the solver's order breaks ties). */
export function bestSurveyed(survey: Survey): string | undefined {
  let best: string | undefined;
  let bestValue = Number.NaN;
  for (const id of survey.candidates) {
    const value = survey.found.get(id);
    if (value === undefined || Number.isNaN(value)) continue;
    if (best === undefined || better(survey.goal, value, bestValue)) {
      best = id;
      bestValue = value;
    }
  }
  return best;
}

/** Whether a value found proves no other theater can do better (nothing beats 0 outside the window, or Standard). */
export function provenBest(goal: SurveyGoal, value: number): boolean {
  return (goal === 'cheapest' || goal === 'window') && value === 0;
}

/** How well the best showtime option of the time stage meets the goal (see {@link Survey.found}). */
export function measure(
  goal: SurveyGoal,
  spec: UiSpec,
  option: RankedOption | undefined,
  model: PreferenceModel,
): number {
  if (goal === 'earliest' || goal === 'latest') return startOf(spec, option);
  const item = option && spec.items.find((i) => i.id === option.itemId);
  if (!item) return Number.NaN;
  if (goal === 'cheapest') return String(item.format ?? '') === 'Standard' ? 0 : 1;
  const start = typeof item.startMinutes === 'number' ? item.startMinutes : clockMinutes(String(item.time ?? ''));
  let end = clockMinutes(String(item.endTime ?? ''));
  if (end < start) end += 1440;
  let outside = 0;
  for (const c of model.soft) {
    if (c.kind !== 'startTime' && c.kind !== 'endTime') continue;
    const at = c.kind === 'startTime' ? start : end;
    if (Number.isNaN(at)) return Number.NaN;
    if (c.after) outside += Math.max(0, clockMinutes(c.after) - at);
    if (c.before) outside += Math.max(0, at - clockMinutes(c.before));
  }
  return outside;
}

/** How the agent states a value found, for its reasons. */
export function describe(goal: SurveyGoal, value: number): string {
  if (goal === 'earliest' || goal === 'latest') return `the ${goal} showing that fits starts at ${clock(value)}`;
  if (goal === 'cheapest')
    return value === 0
      ? 'it has a Standard showing, without a premium-format surcharge'
      : 'it has premium-format showings only';
  return value === 0
    ? 'it has a showing in the time you prefer'
    : `its closest showing is ${value} minutes outside the time you prefer`;
}

/** When the best showtime option of the time stage starts, counted across days. */
export function startOf(spec: UiSpec, option: RankedOption | undefined): number {
  const item = option && spec.items.find((i) => i.id === option.itemId);
  if (!item) return Number.NaN;
  const minutes =
    typeof item.startMinutes === 'number' ? item.startMinutes : clockMinutes(String(item.time ?? item.value ?? ''));
  const day = Date.parse(spec.state.booking?.date ?? '') / 86_400_000;
  return (Number.isFinite(day) ? day : 0) * 1440 + minutes;
}

function clockMinutes(text: string): number {
  const m = /(\d{1,2}):(\d{2})/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : Number.NaN;
}

export function clock(value: number): string {
  const minutes = ((value % 1440) + 1440) % 1440;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
