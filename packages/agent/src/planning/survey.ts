import type { UiSpec } from '@usher/protocol';
import type { PreferenceModel, RankedOption } from './solver/index.ts';

/*
 * A bounded search across theaters for a wish the showtime decides ("the earliest showing", "as
 * late as possible"). The theater stage cannot show showtimes, so choosing the first theater that
 * fits and then its earliest showing is greedy: another theater may start earlier. The planner
 * therefore looks at the showtimes of each theater that fits (at most MAX_SURVEYED), noting the
 * best start of each, then goes back and books at the theater with the best one. Each theater
 * looked at costs a few tool calls (select, next, the date, next, and two `prev`); the theater
 * where the search ends costs none extra.
 */

/** At most this many theaters are looked at before choosing. */
export const MAX_SURVEYED = 4;

export type SurveyGoal = 'earliest' | 'latest';

export interface Survey {
  goal: SurveyGoal;
  /** Theater item ids to look at, best first by the solver. */
  candidates: string[];
  /** The best start found at each theater looked at (minutes from the epoch day); NaN when none fit. */
  found: Map<string, number>;
  /** Labels, for the reasons the agent gives. */
  labels: Map<string, string>;
  done: boolean;
}

/** The wish a survey serves, when the model has one and no single theater is required. */
export function surveyGoal(model: PreferenceModel): SurveyGoal | null {
  const theater = model.hard.find((c) => c.kind === 'theater');
  if (theater?.kind === 'theater' && (theater.is?.length ?? 0) === 1) return null;
  if (model.soft.some((c) => c.kind === 'earliest')) return 'earliest';
  if (model.soft.some((c) => c.kind === 'latest')) return 'latest';
  return null;
}

export function startSurvey(goal: SurveyGoal, options: readonly RankedOption[]): Survey {
  const candidates = options.slice(0, MAX_SURVEYED);
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

/** The theater with the best start found (the solver's order breaks ties). */
export function bestSurveyed(survey: Survey): string | undefined {
  let best: string | undefined;
  let bestValue = Number.NaN;
  for (const id of survey.candidates) {
    const value = survey.found.get(id);
    if (value === undefined || Number.isNaN(value)) continue;
    const better = survey.goal === 'earliest' ? value < bestValue : value > bestValue;
    if (best === undefined || better) {
      best = id;
      bestValue = value;
    }
  }
  return best;
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
