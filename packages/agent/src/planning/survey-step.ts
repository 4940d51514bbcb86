import type { Stage, UiSpec } from '@usher/protocol';
import type { PlannerInput } from './deterministic.ts';
import { CALLS_KEPT_TO_BOOK, filmSearched, LOOKS_PER_FILM } from './film-survey.ts';
import type { NavigationPlan } from './plan.ts';
import { dateLabel, num } from './solver/fields.ts';
import type { PreferenceModel, RankedOption, StageDecision } from './solver/index.ts';
import { requiredSeats } from './solver/model.ts';
import {
  bestSurveyed,
  datesToLook,
  describe,
  type Finding,
  MAX_PROBES,
  measure,
  nextToSurvey,
  partyCost,
  provenBest,
  repriced,
  type Survey,
  slotKey,
  startSurvey,
  surveyGoal,
} from './survey.ts';

/** The moves the search makes, as the planner turns them into tool calls. */
export interface SurveyMoves {
  /** Select an item (or `next` when it is already selected). */
  selectOrNext(itemId: string, reason: string): NavigationPlan;
  /** Select one seat. */
  selectSeat(seatId: string, reason: string): NavigationPlan;
  next(reason: string): NavigationPlan;
  /** Go back to `stage` (one `prev` now, the rest as the planner walks back). */
  back(stage: Stage, reason: string): NavigationPlan;
}

/** The search's goal; with films being compared, also where one theater is named (each film's showtimes there). */
const goalOf = (input: PlannerInput) => surveyGoal(input.model, input.exploration.films !== null, input.tieBreaks);

const running = (input: PlannerInput): Survey | null =>
  input.mode === 'autopilot' && goalOf(input) ? input.exploration.survey : null;

/**
 * The search across theaters, days and formats (survey.ts) on a choice stage: on the theater and
 * date stages, the next list to look at, or the best one found; on the time stage, notes the best
 * showing here and goes back while lists remain (or reads a format's price first). Undefined when
 * no search runs and the stage is decided as usual.
 */
export function surveyStep(
  input: PlannerInput,
  spec: UiSpec,
  viable: RankedOption[],
  dead: ReadonlySet<string>,
  moves: SurveyMoves,
): NavigationPlan | undefined {
  const { exploration } = input;
  const goal = goalOf(input);
  if (!goal || input.mode !== 'autopilot') return undefined;
  if (spec.stage === 'theater') {
    if (exploration.films) exploration.films.away = true;
    const comparingFilms = exploration.films !== null && !exploration.films.done;
    const film = spec.state.booking?.movie?.id;
    // Another film after a dead end: its theaters are compared afresh (the search across films keeps one per film).
    if (exploration.survey && exploration.films === null && exploration.survey.film !== film) exploration.survey = null;
    exploration.survey ??= {
      ...startSurvey(goal, viable, spec, input.model, comparingFilms ? LOOKS_PER_FILM : undefined),
      film,
    };
    const survey = exploration.survey;
    survey.probe = null;
    if (!survey.done) {
      // Another list is looked at only while the calls left can still book the best one found.
      const affordable = input.callsLeft === undefined || input.callsLeft > CALLS_KEPT_TO_BOOK;
      const next = affordable ? nextToSurvey(survey, dead) : undefined;
      if (next)
        return moves.selectOrNext(
          next.theater,
          `${survey.labels.get(next.theater)}: looking at its showtimes to find the best showing`,
        );
      survey.done = true;
    }
    const best = bestSurveyed(survey);
    if (!best || dead.has(best.theater)) return undefined;
    return moves.selectOrNext(
      best.theater,
      `${survey.labels.get(best.theater)}: ${describe(goal, best)}, the best of the ${survey.found.size} showtime lists I compared`,
    );
  }
  const survey = exploration.survey;
  const theater = spec.state.booking?.theater?.id;
  const date = spec.state.booking?.date;
  if (!survey || !theater || !survey.candidates.includes(theater)) return undefined;
  if (spec.stage === 'date') return dateStep(survey, theater, spec, viable, dead, moves);
  if (spec.stage !== 'time' || !date) return undefined;
  return timeStep(input, survey, theater, date, spec, viable, moves);
}

function dateStep(
  survey: Survey,
  theater: string,
  spec: UiSpec,
  viable: RankedOption[],
  dead: ReadonlySet<string>,
  moves: SurveyMoves,
): NavigationPlan | undefined {
  if (!survey.dates.has(theater)) survey.dates.set(theater, datesToLook(survey.goal, viable));
  for (const o of viable) survey.labels.set(o.itemId, o.label);
  const here = survey.labels.get(theater);
  if (survey.done) {
    // A day whose showtimes all led nowhere since it was noted (no seats that fit): its best is the best no more.
    for (const [key, found] of survey.found) {
      if (found.theater === theater && dead.has(found.date) && !Number.isNaN(found.value))
        survey.found.set(key, ledNowhere(found));
    }
    const best = bestSurveyed(survey);
    if (best?.theater !== theater || !viable.some((o) => o.itemId === best.date)) return undefined;
    return moves.selectOrNext(best.date, `${survey.labels.get(best.date)} at ${here}: ${describe(survey.goal, best)}`);
  }
  const soonest = viable[0]?.itemId;
  const best = bestSurveyed(survey);
  if (
    survey.goal === 'earliest' &&
    soonest &&
    best &&
    soonest > best.date &&
    !survey.found.has(slotKey(theater, soonest))
  ) {
    // The day list proves it: this theater's first day is after the soonest showing found.
    const value = (Date.parse(`${soonest}T00:00:00Z`) / 86_400_000) * 1440;
    survey.found.set(slotKey(theater, soonest), { theater, date: soonest, value, priced: true });
    return dateStep(survey, theater, spec, viable, dead, moves);
  }
  // A day that led nowhere (no showtime fits there) is looked at: nothing is to be found there.
  for (const d of survey.dates.get(theater) ?? []) {
    if (dead.has(d) && !survey.found.has(slotKey(theater, d)))
      survey.found.set(slotKey(theater, d), { theater, date: d, value: Number.NaN, priced: false });
  }
  const date = (survey.dates.get(theater) ?? []).find((d) => !survey.found.has(slotKey(theater, d)));
  if (date) return moves.selectOrNext(date, `${survey.labels.get(date)} at ${here}: looking at its showtimes`);
  // Every day to look at here is seen (or led nowhere): another theater, or the best found.
  if (!nextToSurvey(survey, new Set())) {
    survey.done = true;
    return dateStep(survey, theater, spec, viable, dead, moves);
  }
  const soonerElsewhere = survey.goal === 'earliest' && best && soonest && soonest > best.date;
  return moves.back(
    'theater',
    soonerElsewhere
      ? `${here}: its first day with a showing that fits is ${survey.labels.get(soonest)}, after the showing found at ${survey.labels.get(best.theater)}; comparing another theater.`
      : `${here}: no other day to compare here; comparing another theater.`,
  );
}

function timeStep(
  input: PlannerInput,
  survey: Survey,
  theater: string,
  date: string,
  spec: UiSpec,
  viable: RankedOption[],
  moves: SurveyMoves,
): NavigationPlan | undefined {
  const key = slotKey(theater, date);
  const where = `${survey.labels.get(theater)} on ${survey.labels.get(date) ?? dateLabel(date)}`;
  if (survey.probe) {
    // On the way to the ticket stage to read a format's price.
    const probe = survey.probe;
    if (viable.some((o) => o.itemId === probe.itemId))
      return moves.selectOrNext(probe.itemId, `${where}: on to the ticket stage to see what ${probe.format} costs`);
    survey.probe = null;
  }
  if (!survey.done && !survey.found.has(key)) {
    if (!survey.dates.has(theater)) survey.dates.set(theater, [date]);
    const m = measure(survey.goal, spec, viable, input.model, survey.prices);
    const more = nextToSurvey(survey, new Set(), key);
    const [unpriced] = m.unpriced;
    // Read a price only once this theater's days are all seen: a later day may show Standard.
    const lastDayHere = more?.theater !== theater;
    if (unpriced && more && lastDayHere && survey.probes < MAX_PROBES) {
      survey.probes += 1;
      survey.probe = unpriced;
      return moves.selectOrNext(
        unpriced.itemId,
        `${where}: its best fitting format is ${unpriced.format}; on to the ticket stage to see what it costs, to compare formats`,
      );
    }
    // For the closest, a showing that fits here makes the theater's distance the value.
    const value =
      survey.goal === 'closest'
        ? Number.isNaN(m.value)
          ? m.value
          : (survey.distances.get(theater) ?? Number.NaN)
        : m.value;
    const finding: Finding = {
      theater,
      date,
      value,
      priced: m.priced,
      ...(survey.goal === 'closest' && !Number.isNaN(m.value) && { start: m.value }),
      ...(m.itemId && { itemId: m.itemId }),
      ...(m.label && { label: m.label }),
      ...(m.format && { format: m.format }),
      ...(m.formats && { formats: m.formats }),
    };
    survey.found.set(key, finding);
    if (provenBest(survey.goal, m.value) || !more || closestProven(survey, value)) survey.done = true;
    if (!survey.done) {
      const next = nextToSurvey(survey, new Set());
      const to: Stage = next?.theater === theater ? 'date' : 'theater';
      return moves.back(
        to,
        `${where}: ${describe(survey.goal, finding)}; comparing ${to === 'date' ? 'another day' : 'another theater'}.`,
      );
    }
  }
  if (!survey.done) return undefined;
  // Films are being compared: this one's best is noted, and the next film is looked at.
  const otherFilm = filmSearched(input, survey, moves);
  if (otherFilm) return otherFilm;
  const seen = survey.found.get(key);
  const here = seen && repriced(seen, survey.prices);
  // The last list's format may have no known price yet: book here, and compare on the ticket stage.
  const best = here && survey.goal === 'cheapest' && !here.priced && here.itemId ? here : bestSurveyed(survey);
  if (!best) return undefined;
  if (best.theater === theater && best.date === date) {
    if (!best.itemId) return undefined;
    if (!viable.some((o) => o.itemId === best.itemId)) {
      // The best showing led nowhere since it was noted (no seats that fit): it is the best no more,
      // so the search does not come back to it.
      survey.found.set(key, ledNowhere(best));
      return undefined;
    }
    let label = viable.find((o) => o.itemId === best.itemId)?.reason ?? best.itemId;
    const known = bestSurveyed(survey);
    if (!best.priced && known)
      label += `; its ${best.format} price shows on the ticket stage, to compare with ${known.format} at ${known.value.toFixed(2)}`;
    return moves.selectOrNext(
      best.itemId,
      survey.found.size > 1 ? `${label}; the best of the ${survey.found.size} showtime lists I compared` : label,
    );
  }
  const to: Stage = best.theater === theater ? 'date' : 'theater';
  return moves.back(
    to,
    `${where}: ${describe(survey.goal, here ?? best)}; going back to the best showing found, at ${survey.labels.get(best.theater)} on ${survey.labels.get(best.date) ?? dateLabel(best.date)}.`,
  );
}

/**
 * The seat and ticket stages during the search: on a trip to read a format's price, one seat and
 * on to the tickets, where the price is noted and the planner goes back to the showtimes; on the
 * booking itself, for the cheapest, the price here against the best known: a dearer format goes
 * back to the cheaper showing. Undefined when the stage is decided as usual.
 */
export function surveyOnBooking(
  input: PlannerInput,
  spec: UiSpec,
  decision: StageDecision,
  moves: SurveyMoves,
): NavigationPlan | undefined {
  const survey = running(input);
  if (!survey) return undefined;
  const booking = spec.state.booking;
  const probe = survey.probe;
  // A host that prices seats one by one (no ticket stage) shows a format's price on its seat map.
  const seatCost = spec.stage === 'seat' ? seatMapCost(input.model, spec) : Number.NaN;
  if (spec.stage === 'seat' && probe && !Number.isNaN(seatCost)) {
    survey.prices.set(probe.format, seatCost);
    survey.probe = null;
    return moves.back(
      'time',
      `${probe.format} seats for your party cost ${seatCost.toFixed(2)} here; back to the showtimes to compare.`,
    );
  }
  if (spec.stage === 'seat' && probe) {
    const chosen = spec.state.selectedList ?? [];
    if (chosen.length > 0) return moves.next(`Seat ${chosen.join(', ')} to see the ${probe.format} ticket prices`);
    const seat = decision.kind === 'seats' ? decision.options[0]?.toSelect[0] : undefined;
    if (seat)
      return moves.selectSeat(seat, `One seat, ${seat}, to see the ${probe.format} ticket prices on the next stage`);
    survey.probe = null;
    return moves.back('time', `No seat here to reach the ${probe.format} ticket prices; back to the showtimes.`);
  }
  const onSeats = spec.stage === 'seat' && !Number.isNaN(seatCost);
  if ((spec.stage !== 'ticket' && !onSeats) || survey.goal !== 'cheapest') return undefined;
  const format = booking?.showing?.format ?? probe?.format;
  const cost = onSeats ? seatCost : partyCost(input.model, spec.items);
  const readable = Boolean(format) && !Number.isNaN(cost);
  if (format && readable) survey.prices.set(format, cost);
  if (probe) {
    survey.probe = null;
    // A host whose ticket stage shows no prices: no more trips, the search goes by what it saw.
    if (!readable) survey.probes = MAX_PROBES;
    return moves.back(
      'time',
      readable
        ? `${format} tickets for your party cost ${cost.toFixed(2)}; back to the showtimes to compare.`
        : 'The ticket stage shows no prices to compare; back to the showtimes.',
    );
  }
  if (!format || !readable) return undefined;
  const theater = booking?.theater?.id;
  const date = booking?.date;
  // Standard carries no surcharge: nothing is cheaper. Going back happens once, to a known price.
  if (!survey.done || !theater || !date || format === 'Standard' || survey.rebooked) return undefined;
  const best = bestSurveyed(survey);
  if (!best || !(best.value < cost)) return undefined;
  survey.rebooked = true;
  const to: Stage = best.theater !== theater ? 'theater' : best.date !== date ? 'date' : 'time';
  return moves.back(
    to,
    `${format} tickets for your party cost ${cost.toFixed(2)} here; ${describe('cheapest', best)} at ${input.exploration.survey?.labels.get(best.theater)}: going back to book that.`,
  );
}

/**
 * What the party's seats cost on a seat map whose seats show their own price (a host without a
 * ticket stage): as many of its cheapest seats as the party needs; NaN when a seat shows no price.
 */
export function seatMapCost(model: PreferenceModel, spec: UiSpec): number {
  const prices = spec.items.map((i) => num(i, 'price'));
  if (prices.length === 0 || prices.some((p) => !Number.isFinite(p))) return Number.NaN;
  const count = Math.max(1, requiredSeats(model).count);
  return Math.round(count * Math.min(...prices) * 100) / 100;
}

/** A finding whose showing led nowhere after it was noted: no value, and no formats to price it again by. */
function ledNowhere(found: Finding): Finding {
  const { formats: _formats, itemId: _itemId, ...rest } = found;
  return { ...rest, value: Number.NaN, priced: false };
}

/** For the closest: a theater with a showing that fits, and no theater left to look at is nearer. */
function closestProven(survey: Survey, value: number): boolean {
  if (survey.goal !== 'closest' || Number.isNaN(value)) return false;
  const looked = new Set([...survey.found.values()].map((f) => f.theater));
  return survey.candidates.every((t) => looked.has(t) || (survey.distances.get(t) ?? 0) >= value);
}
