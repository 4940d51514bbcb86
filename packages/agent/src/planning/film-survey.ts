import { type HardConstraint, isPreference } from '@usher/booking';
import type { UiSpec } from '@usher/protocol';
import type { PlannerInput } from './deterministic.ts';
import type { NavigationPlan } from './plan.ts';
import type { RankedOption } from './solver/index.ts';
import { judgedHere, judgeOption } from './solver/judge.ts';
import {
  bestSurveyed,
  betterFinding,
  describe,
  type Finding,
  provenBest,
  type Survey,
  type SurveyGoal,
  surveyGoal,
} from './survey.ts';
import type { SurveyMoves } from './survey-step.ts';

/*
 * The search across films. A wish the showtime decides ("the earliest comedy on Saturday", "the
 * cheapest thriller", "something this evening") is a wish about the whole booking, not about the
 * first film that fits: the movie stage shows no showtimes, so choosing the film first and applying
 * the wish inside it books the earliest showing of one comedy, not the earliest comedy. When no
 * film is named and several fit, the planner runs the search across theaters and days (survey.ts)
 * for each of the best few films in turn, each with a smaller share of lists, notes the best
 * showing of each, then goes back and books the best of all. When a film has no showing that fits,
 * the usual backtracking leaves it (it is marked tried) and the search goes on with the next.
 */

/**
 * At most this many films with a showing that fits are compared (and at most
 * {@link MAX_LISTS_ACROSS_FILMS} showtime lists among them), among at most
 * {@link MAX_FILM_CANDIDATES} looked at: a film that does not play where or when it must costs
 * three steps (choose it, go on, come back) and does not count.
 */
export const MAX_FILMS = 8;
export const MAX_FILM_CANDIDATES = 10;
/**
 * At most this many showtime lists are looked at across the films compared: where one theater and
 * one day are named, a film is one list and all eight fit; across theaters and days, about five.
 */
export const MAX_LISTS_ACROSS_FILMS = 20;

/**
 * Tool calls kept for after the comparison: going back to the best film, walking it to its seats
 * and tickets, and a retry or two. A film is looked at only while more than this is left.
 */
export const CALLS_KEPT_TO_BOOK = 45;
/** What one more film may cost: across theaters and days, a few showtime lists. */
const CALLS_PER_FILM = 25;

/** Whether another film is still to be looked at. */
function nextFilm(films: FilmSurvey, dead: ReadonlySet<string> = new Set(), callsLeft?: number): string | undefined {
  if (callsLeft !== undefined && callsLeft < CALLS_KEPT_TO_BOOK + CALLS_PER_FILM) return undefined;
  const found = [...films.results.values()].filter((f) => f !== undefined && !Number.isNaN(f.value)).length;
  const lists = [...films.surveys.values()].reduce((sum, survey) => sum + (survey?.found.size ?? 0), 0);
  if (found >= MAX_FILMS || lists >= MAX_LISTS_ACROSS_FILMS) return undefined;
  return films.candidates.find((film) => !films.results.has(film) && !dead.has(film));
}
/** Showtime lists looked at for each film while films are compared (survey.ts looks at up to eight for one film). */
export const LOOKS_PER_FILM = 4;

export interface FilmSurvey {
  goal: SurveyGoal;
  /** "The latest at my closest cinema", "the best rated there": what decides between films found equally close. */
  then?: 'earliest' | 'latest' | 'highestRated';
  /** Each film's rating as the movie stage shows it (for `then: 'highestRated'`). */
  ratings?: Map<string, number>;
  /** Film item ids to compare, best first by the solver. */
  candidates: string[];
  labels: Map<string, string>;
  /** Each film's search across theaters and days, kept so the chosen film's is followed to its best. */
  surveys: Map<string, Survey | null>;
  /** Each film's best showing found (undefined: nothing fitted). */
  results: Map<string, Finding | undefined>;
  /** The film whose showtimes are being looked at. */
  current: string | null;
  /** The search has left the movie stage with `current` (its theaters were reached). */
  away: boolean;
  done: boolean;
}

/**
 * Whether the films are to be compared: a wish the showtime decides, no single film named (and
 * none ranked by rating, which the movie stage decides itself), and more than one film that fits.
 */
export function filmSurveyGoal(input: PlannerInput, viable: readonly RankedOption[]): SurveyGoal | null {
  if (input.mode !== 'autopilot' || viable.length < 2) return null;
  const { model } = input;
  const title = model.hard.find((c) => c.kind === 'title');
  if (title?.kind === 'title' && (title.is?.length ?? 0) > 0) return null;
  const closest = model.soft.some((c) => c.kind === 'closest');
  // Ranked by rating alone, the movie stage decides; "the best rated at the closest place" is a search for the closest.
  if (model.soft.some((c) => c.kind === 'title' && (c.is?.length ?? 0) > 0)) return null;
  const tieBreaks = input.tieBreaks ?? [];
  if (model.soft.some((c) => c.kind === 'highestRated'))
    return closest && !tieBreaks.includes('closest') ? 'closest' : null;
  return surveyGoal(model, true, tieBreaks);
}

/** The film with the best showing found, in the solver's order when two are as good. */
export function bestFilm(films: FilmSurvey): { film: string; finding: Finding } | undefined {
  let best: { film: string; finding: Finding } | undefined;
  for (const film of films.candidates) {
    const finding = films.results.get(film);
    if (!finding || Number.isNaN(finding.value)) continue;
    if (
      !best ||
      betterFinding(films.goal, finding, best.finding) ||
      betterOnTie(films, { ...finding, film }, { ...best.finding, film: best.film })
    )
      best = { film, finding };
  }
  return best;
}

/**
 * The films that also meet the wishes said softly about the film ("a family film would be lovely …
 * whichever is the cheapest": the cheapest family film), when any does; otherwise all that fit.
 */
function preferredFilms(input: PlannerInput, spec: UiSpec, viable: readonly RankedOption[]): readonly RankedOption[] {
  const soft = judgedHere(
    'movie',
    input.model.soft.filter((c) => !isPreference(c)),
  ) as HardConstraint[];
  if (soft.length === 0) return viable;
  const meets = (o: RankedOption) => {
    const item = spec.items.find((i) => i.id === o.itemId);
    return item !== undefined && soft.every((c) => judgeOption('movie', c, item)?.ok !== false);
  };
  const preferred = viable.filter(meets);
  return preferred.length > 0 ? preferred : viable;
}

/** Between films found equally good, the one the second wish prefers: by its rating, or by its showing's start. */
function betterOnTie(films: FilmSurvey, a: Finding & { film?: string }, b: Finding & { film?: string }): boolean {
  if (!films.then || betterFinding(films.goal, b, a)) return false;
  if (films.then === 'highestRated') {
    const ra = a.film !== undefined ? films.ratings?.get(a.film) : undefined;
    const rb = b.film !== undefined ? films.ratings?.get(b.film) : undefined;
    return ra !== undefined && rb !== undefined && ra > rb;
  }
  if (a.start === undefined || b.start === undefined) return false;
  return films.then === 'latest' ? a.start > b.start : a.start < b.start;
}

/**
 * The movie stage during the search: the next film to look at, or the best one found. Undefined
 * when no search across films runs (the stage is decided as usual).
 */
export function filmSurveyStep(
  input: PlannerInput,
  spec: UiSpec,
  viable: readonly RankedOption[],
  dead: ReadonlySet<string>,
  moves: SurveyMoves,
): NavigationPlan | undefined {
  const { exploration } = input;
  const goal = filmSurveyGoal(input, viable);
  if (spec.stage !== 'movie' || !goal) return undefined;
  let films = exploration.films;
  if (!films || films.goal !== goal) {
    const candidates = preferredFilms(input, spec, viable).slice(0, MAX_FILM_CANDIDATES);
    const then = input.model.soft.find(
      (c) => c.kind === 'earliest' || c.kind === 'latest' || c.kind === 'highestRated',
    )?.kind;
    const ratings = new Map(
      spec.items.flatMap((i) => (typeof i.rating === 'number' ? [[i.id, i.rating] as const] : [])),
    );
    films = {
      goal,
      ...(goal === 'closest' && (then === 'earliest' || then === 'latest' || then === 'highestRated') && { then }),
      ...(then === 'highestRated' && { ratings }),
      candidates: candidates.map((o) => o.itemId),
      labels: new Map(candidates.map((o) => [o.itemId, o.label])),
      surveys: new Map(),
      results: new Map(),
      current: null,
      away: false,
      done: false,
    };
    exploration.films = films;
  }
  // Back from a film: keep what its search found (a film that led nowhere is marked tried, and found nothing).
  if (films.current && films.away && !films.results.has(films.current) && !films.done) {
    const survey = exploration.survey;
    films.surveys.set(films.current, survey);
    films.results.set(films.current, survey ? bestSurveyed(survey) : undefined);
  }
  if (!films.done) {
    const next = nextFilm(films, dead, input.callsLeft);
    if (next) {
      films.current = next;
      films.away = false;
      exploration.survey = films.surveys.get(next) ?? null;
      return moves.selectOrNext(
        next,
        `${films.labels.get(next)}: looking at its showtimes, to compare the films for the ${goalWords(goal)}`,
      );
    }
    films.done = true;
  }
  const best = bestFilm(films);
  if (!best || dead.has(best.film)) return undefined;
  films.current = best.film;
  films.away = false;
  exploration.survey = films.surveys.get(best.film) ?? null;
  const compared = [...films.results.values()].filter(Boolean).length;
  return moves.selectOrNext(
    best.film,
    `${films.labels.get(best.film)}: ${describe(goal, best.finding)}, the best of the ${compared} films I compared`,
  );
}

/**
 * On the time stage, once the film on screen has been searched: while films remain to compare,
 * note its best and go back to the movie stage (saying why). Undefined otherwise.
 */
export function filmSearched(input: PlannerInput, survey: Survey, moves: SurveyMoves): NavigationPlan | undefined {
  const films = input.exploration.films;
  if (!films || films.done || !films.current || films.results.has(films.current)) return undefined;
  const film = films.current;
  films.surveys.set(film, survey);
  const finding = bestSurveyed(survey);
  films.results.set(film, finding);
  const said = finding ? describe(films.goal, finding) : 'no showing fits';
  if (nextFilm(films, undefined, input.callsLeft) === undefined) {
    // The last film compared: booked here only when no film before it did better for sure.
    const best = bestFilm(films);
    const mine = finding && !Number.isNaN(finding.value) ? finding : undefined;
    const beaten =
      best !== undefined &&
      best.film !== film &&
      (mine === undefined ? provenBest(films.goal, best.finding.value) : betterFinding(films.goal, best.finding, mine));
    if (!beaten) return undefined;
    return moves.back(
      'movie',
      `${films.labels.get(film)}: ${said}; going back to ${films.labels.get(best.film)}, the best of the films compared.`,
    );
  }
  return moves.back('movie', `${films.labels.get(film)}: ${said}; comparing another film.`);
}

function goalWords(goal: SurveyGoal): string {
  switch (goal) {
    case 'earliest':
      return 'earliest showing';
    case 'latest':
      return 'latest showing';
    case 'cheapest':
      return 'cheapest showing';
    case 'window':
      return 'showing at the time you prefer';
    case 'closest':
      return 'showing at the closest theater';
  }
}
