import { typicality, typicalStartOf } from '@usher/booking';
import type { Item, UiSpec } from '@usher/protocol';
import { num, text } from './solver/fields.ts';
import type { PreferenceModel, RankedOption } from './solver/index.ts';
import { startOf as itemStart } from './solver/judge.ts';
import { mixSize, ofKind, requiredSeats } from './solver/model.ts';

/*
 * A bounded search across theaters, days and formats for a wish the showtime decides ("the
 * earliest showing", "as late as possible", "as cheap as possible", "preferably in the evening").
 * No single stage shows enough to choose well: the theater stage shows no showtimes, the date
 * stage no times, the time stage no prices. So the planner looks at the showtimes of each theater
 * that fits (at most MAX_SURVEYED) on each day that fits (for wishes a day decides: up to
 * MAX_DATES a theater, MAX_LOOKS lists in all), notes how well the best showing of each list meets
 * the wish, then goes back and books the best one. Each list costs a few visible tool calls (a
 * theater: select, next, the day, next, and two `prev`; another day at the same theater: `prev`,
 * the day, next). The search stops early when a list proves nothing can do better: a showing
 * inside the wished-for window, or one in Standard format for the cheapest (premium formats carry
 * a surcharge, never a discount).
 *
 * For the cheapest, premium formats are compared by price, and prices show only on the ticket
 * stage: when a list's best format has no known price, more lists are to come and the theater has
 * no other day to show (a later day may show Standard), the planner goes on to that showing's
 * ticket stage with one seat (select, next, a seat, next, two `prev`; at most MAX_PROBES times)
 * and notes what the party's tickets cost in that format; lists seen before are priced again.
 * The last list needs no trip: the booking itself reaches the ticket stage, and there the price is
 * compared with the best known; a dearer one goes back (once) to the cheaper showing. A format's
 * ticket prices are taken to hold at every theater (the host prices a format by its surcharge).
 *
 * For a time window that is a named part of the day ("preferably in the evening"), a list is as
 * good as its most typical start (`typicality` of @usher/booking, the checker's own measure), so
 * only a start within half an hour of the typical one (18:30–19:30 for the evening) ends the
 * search early. For the earliest, the date stage already proves a theater whose first fitting day
 * is after the soonest showing found cannot do better: its times are not looked at.
 */

/** At most this many theaters are looked at before choosing. */
export const MAX_SURVEYED = 4;
/** At most this many days at one theater, for wishes a day decides (the cheapest, a time window). */
export const MAX_DATES = 3;
/** At most this many showtime lists in all. */
export const MAX_LOOKS = 8;
/** At most this many trips to a ticket stage to read a format's prices. */
export const MAX_PROBES = 2;

export type SurveyGoal = 'earliest' | 'latest' | 'cheapest' | 'window' | 'closest';

/** What one showtime list (a theater on a day) gave: how well its best fitting showing meets the goal. */
export interface Finding {
  theater: string;
  date: string;
  /**
   * Lower is better, except for latest: the start (minutes from the epoch day) for earliest and
   * latest, the party's ticket cost (0 for Standard) for cheapest, the minutes outside the wished
   * window for window; NaN when nothing fits or the price is not known.
   */
  value: number;
  /** For the closest: the start of the showing that gave it, which breaks ties of distance. */
  start?: number;
  /** The showtime that gave it, and its label ("20:10 · Standard"). */
  itemId?: string;
  label?: string;
  format?: string;
  /** For the cheapest: whether the value is a known price (Standard, or a format whose tickets were seen). */
  priced: boolean;
  /** For the cheapest: the best fitting showing of each format on the list, to price it again as prices become known. */
  formats?: Array<{ itemId: string; format: string }>;
}

/** A cheapest finding at the prices known now: its cheapest priced format, or unpriced when none is. */
export function repriced(f: Finding, prices: ReadonlyMap<string, number>): Finding {
  if (!f.formats || f.formats.length === 0) return f;
  let best: Finding | undefined;
  for (const o of f.formats) {
    const cost = o.format === 'Standard' ? 0 : prices.get(o.format);
    if (cost !== undefined && (!best || cost < best.value)) best = { ...f, ...o, value: cost, priced: true };
  }
  const [first] = f.formats;
  return best ?? { ...f, ...first, value: Number.NaN, priced: false };
}

export interface Survey {
  /** The film whose theaters are compared (the booking's film when it started). */
  film?: string | undefined;
  goal: SurveyGoal;
  /** Theater item ids to look at, best first by the solver. */
  candidates: string[];
  /** Days to look at at each theater, set on reaching its date stage. */
  dates: Map<string, string[]>;
  /** The lists looked at, by {@link slotKey}. */
  found: Map<string, Finding>;
  /** What the party's tickets cost in each format seen on a ticket stage. */
  prices: Map<string, number>;
  /** A trip to a ticket stage under way, to read the price of `format` at showing `itemId`. */
  probe: { itemId: string; format: string } | null;
  probes: number;
  /** Whether the booking already went back from a ticket stage to a cheaper format (it does so once). */
  rebooked: boolean;
  /** Labels of theaters and days, for the reasons the agent gives. */
  labels: Map<string, string>;
  done: boolean;
  /** At most this many lists ({@link MAX_LOOKS}, fewer while films are compared). */
  maxLooks: number;
  /** For the closest: each theater's distance as the theater stage shows it. */
  distances: Map<string, number>;
}

export const slotKey = (theater: string, date: string) => `${theater}@${date}`;

const SHOWTIME_GOALS = ['earliest', 'latest', 'cheapest'] as const;

/**
 * The wish a survey serves, when the model has one and no single theater is required: the first
 * of earliest, latest and cheapest the participant named, else a soft time window. Cheapest needs
 * no survey when one format is required (the seats then decide the price).
 */
export function surveyGoal(
  model: PreferenceModel,
  acrossFilms = false,
  tieBreaks: readonly string[] = [],
): SurveyGoal | null {
  // One theater named: nothing to compare across theaters, but still across the films it shows.
  const theater = model.hard.find((c) => c.kind === 'theater');
  if (!acrossFilms && theater?.kind === 'theater' && (theater.is?.length ?? 0) === 1) return null;
  const format = model.hard.find((c) => c.kind === 'format');
  const oneFormat = format?.kind === 'format' && (format.is?.length ?? 0) === 1;
  const title = model.hard.find((c) => c.kind === 'title');
  const filmNamed = title?.kind === 'title' && (title.is?.length ?? 0) > 0;
  // "Whatever is on last tonight at my closest cinema": the closest theater first, then the time
  // among its films (the film search breaks ties of distance by it).
  const closestFirst =
    !filmNamed &&
    !tieBreaks.includes('closest') &&
    model.soft.some((c) => c.kind === 'closest') &&
    model.soft.some((c) => c.kind === 'earliest' || c.kind === 'latest');
  if (closestFirst) return 'closest';
  const named = model.soft.find(
    (c) => (SHOWTIME_GOALS as readonly string[]).includes(c.kind) && !(c.kind === 'cheapest' && oneFormat),
  );
  if (named) return named.kind as SurveyGoal;
  if (model.soft.some((c) => c.kind === 'startTime' || c.kind === 'endTime')) return 'window';
  // The closest theater with a showing that fits, compared across films ("whatever's on at the
  // closest place"): for one film named, the solver's theater order already serves it.
  if (!filmNamed && model.soft.some((c) => c.kind === 'closest')) return 'closest';
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
 * is not looked at for an IMAX showing; the usual backtracking still tries it if the survey finds
 * nothing). For the cheapest, theaters that advertise no premium format come first: they show
 * Standard only, which ends the search.
 */
export function startSurvey(
  goal: SurveyGoal,
  options: readonly RankedOption[],
  spec?: UiSpec,
  model?: PreferenceModel,
  /** Films are being compared: this film gets fewer lists, and even one theater is looked at. */
  maxLooks?: number,
): Survey {
  let ordered = options.filter((o) => !model || !spec || mayShowFormat(spec, o.itemId, model));
  if (goal === 'cheapest' && spec) {
    const standardOnly = (id: string) => {
      const amenities = amenitiesOf(spec, id);
      return amenities !== undefined && !amenities.some((a) => PREMIUM.test(a));
    };
    ordered = [...ordered.filter((o) => standardOnly(o.itemId)), ...ordered.filter((o) => !standardOnly(o.itemId))];
  }
  const candidates = ordered.slice(0, MAX_SURVEYED);
  return {
    goal,
    candidates: candidates.map((o) => o.itemId),
    dates: new Map(),
    found: new Map(),
    prices: new Map(),
    probe: null,
    probes: 0,
    rebooked: false,
    labels: new Map(candidates.map((o) => [o.itemId, o.label])),
    distances: new Map(
      candidates.flatMap((o) => {
        const km = spec?.items.find((i) => i.id === o.itemId)?.distanceKm;
        return typeof km === 'number' ? [[o.itemId, km] as const] : [];
      }),
    ),
    // One theater still has days to compare for the latest (the last day's), the cheapest and a
    // time window; while films are compared, its showing is still to be noted.
    done:
      candidates.length === 0 ||
      (maxLooks === undefined && candidates.length < 2 && (goal === 'earliest' || goal === 'closest')),
    maxLooks: maxLooks ?? MAX_LOOKS,
  };
}

/**
 * The days to look at at a theater, from the date stage's fitting options (best first): only the
 * first for earliest (the solver puts the earliest day first) and the closest (any day with a
 * showing that fits proves the theater); up to MAX_DATES for the latest ("the
 * very last screening this weekend" is on the last day that has one), the cheapest and a time
 * window, which any day may meet best.
 */
export function datesToLook(goal: SurveyGoal, options: readonly RankedOption[]): string[] {
  const n = goal === 'earliest' || goal === 'closest' ? 1 : MAX_DATES;
  return options.slice(0, n).map((o) => o.itemId);
}

/**
 * The next list to look at: a theater whose days are not known yet, or one of its days not looked
 * at; `seeing` counts as looked at (the list on screen, before it is noted).
 */
export function nextToSurvey(
  survey: Survey,
  dead: ReadonlySet<string>,
  seeing?: string,
): { theater: string; date?: string } | undefined {
  const looked = survey.found.size + (seeing && !survey.found.has(seeing) ? 1 : 0);
  if (looked >= survey.maxLooks) return undefined;
  for (const theater of survey.candidates) {
    if (dead.has(theater)) continue;
    const dates = survey.dates.get(theater);
    if (!dates) return { theater };
    const date = dates.find((d) => slotKey(theater, d) !== seeing && !survey.found.has(slotKey(theater, d)));
    if (date) return { theater, date };
  }
  return undefined;
}

/** Whether value `a` serves the goal better than `b` (later for latest, lower for the rest). */
export const better = (goal: SurveyGoal, a: number, b: number) => (goal === 'latest' ? a > b : a < b);

/** The best list found, with a known value (the solver's order of theaters, then days, breaks ties). */
export function bestSurveyed(survey: Survey): Finding | undefined {
  let best: Finding | undefined;
  for (const theater of survey.candidates) {
    for (const date of survey.dates.get(theater) ?? []) {
      const found = survey.found.get(slotKey(theater, date));
      const f = found && repriced(found, survey.prices);
      if (!f || Number.isNaN(f.value) || (survey.goal === 'cheapest' && !f.priced)) continue;
      if (!best || betterFinding(survey.goal, f, best)) best = f;
    }
  }
  return best;
}

/**
 * Whether finding `a` serves the goal better than `b`. The earliest and the latest are a day and a
 * time: "the very last screening this weekend" is Sunday's 21:30, not Saturday's.
 */
export function betterFinding(
  goal: SurveyGoal,
  a: Pick<Finding, 'date' | 'value'>,
  b: Pick<Finding, 'date' | 'value'>,
): boolean {
  if ((goal === 'earliest' || goal === 'latest') && a.date !== b.date) {
    return goal === 'latest' ? a.date > b.date : a.date < b.date;
  }
  return better(goal, a.value, b.value);
}

/** Whether a value found proves no other list can do better (nothing beats 0 outside the window, or Standard). */
export function provenBest(goal: SurveyGoal, value: number): boolean {
  if (goal === 'closest') return false;
  return (goal === 'cheapest' || goal === 'window') && value === 0;
}

/** A showtime list's best showing for the goal, and for the cheapest the formats whose price is not known yet. */
export interface Measured {
  value: number;
  itemId?: string;
  label?: string;
  format?: string;
  priced: boolean;
  /** For the cheapest: the best showing of each fitting format with no known price, best first. */
  unpriced: Array<{ itemId: string; format: string }>;
  /** For the cheapest: the best fitting showing of each format. */
  formats?: Array<{ itemId: string; format: string }>;
}

/** How well the time stage's fitting options (best first) meet the goal (see {@link Finding.value}). */
export function measure(
  goal: SurveyGoal,
  spec: UiSpec,
  options: readonly RankedOption[],
  model: PreferenceModel,
  prices: ReadonlyMap<string, number> = new Map(),
): Measured {
  const itemOf = (o: RankedOption) => spec.items.find((i) => i.id === o.itemId);
  const first = options[0];
  const item = first && itemOf(first);
  if (!first || !item) return { value: Number.NaN, priced: false, unpriced: [] };
  const format = text(item, 'format');
  if (goal !== 'cheapest') {
    const value = goal === 'window' ? outsideWindow(item, model) : startOf(spec, first);
    return { value, itemId: first.itemId, label: first.label, format, priced: true, unpriced: [] };
  }
  let best: Measured | undefined;
  const unpriced: Measured['unpriced'] = [];
  const formats: NonNullable<Measured['formats']> = [];
  for (const o of options) {
    const f = text(itemOf(o) ?? { id: '', value: '' }, 'format');
    if (!formats.some((x) => x.format === f)) formats.push({ itemId: o.itemId, format: f });
    const cost = f === 'Standard' ? 0 : prices.get(f);
    if (cost === undefined) {
      // A showtime that names no format cannot be priced by its format.
      if (f !== '' && !unpriced.some((u) => u.format === f)) unpriced.push({ itemId: o.itemId, format: f });
    } else if (!best || cost < best.value) {
      best = { value: cost, itemId: o.itemId, format: f, priced: true, unpriced: [] };
    }
  }
  if (best?.value === 0) return { ...best, formats };
  if (best && unpriced.length === 0) return { ...best, formats };
  // A format with no known price may be the cheaper: the value is not known until it is read.
  const [u] = unpriced;
  return best
    ? { ...best, unpriced, formats }
    : { value: Number.NaN, itemId: u?.itemId, format: u?.format, priced: false, unpriced, formats };
}

/**
 * How far the showing is from the soft start and end windows: for each window, 100 plus the
 * minutes outside it, or inside a named part of the day how far from typical its start is (0 to
 * 100, as the checker's typicality scores it); 0 inside them all at a typical start.
 */
function outsideWindow(item: Item, model: PreferenceModel): number {
  const start = itemStart(item);
  let end = clockMinutes(text(item, 'endTime'));
  if (end < start) end += 1440;
  let cost = 0;
  for (const c of model.soft) {
    if (c.kind !== 'startTime' && c.kind !== 'endTime') continue;
    const at = c.kind === 'startTime' ? start : end;
    if (Number.isNaN(at)) return Number.NaN;
    const outside =
      (c.after ? Math.max(0, clockMinutes(c.after) - at) : 0) +
      (c.before ? Math.max(0, at - clockMinutes(c.before)) : 0);
    const typical = c.kind === 'startTime' ? typicalStartOf(c) : undefined;
    if (outside > 0) cost += 100 + outside;
    else if (typical) cost += Math.round((1 - typicality(start, typical)) * 100);
  }
  return cost;
}

/**
 * What the party's tickets cost on a ticket stage: the hard (else soft) ticket mix, else every
 * seat an adult's (or of the first type on offer), at the prices the stage shows; NaN when a type
 * needed shows no price.
 */
export function partyCost(model: PreferenceModel, items: readonly Item[]): number {
  const mix =
    ofKind(model.hard, 'ticketMix').find((c) => mixSize(c) > 0) ??
    ofKind(model.soft, 'ticketMix').find((c) => mixSize(c) > 0);
  const seats = requiredSeats(model).count;
  const adult = items.find((i) => i.id === 'adult') ?? items[0];
  const wanted: Array<[string, number]> = mix
    ? [
        ['adult', mix.adult ?? 0],
        ['child', mix.child ?? 0],
        ['senior', mix.senior ?? 0],
      ]
    : [[adult?.id ?? 'adult', seats]];
  let total = 0;
  for (const [id, n] of wanted) {
    if (n === 0) continue;
    const price = num(items.find((i) => i.id === id) ?? { id, value: '' }, 'price');
    total += n * price;
  }
  return Math.round(total * 100) / 100;
}

/** How the agent states a value found, for its reasons. */
export function describe(goal: SurveyGoal, finding: Pick<Finding, 'value' | 'format' | 'priced' | 'label'>): string {
  const { value } = finding;
  if (Number.isNaN(value) && (goal !== 'cheapest' || finding.format === undefined)) return 'no showing there fits';
  if (goal === 'earliest' || goal === 'latest') return `the ${goal} showing that fits starts at ${clock(value)}`;
  if (goal === 'closest') return `it has a showing that fits, ${value} km away`;
  if (goal === 'cheapest') {
    if (value === 0) return 'it has a Standard showing, without a premium-format surcharge';
    if (!finding.priced)
      return `its cheapest fitting format is ${finding.format}, whose price shows on the ticket stage`;
    return `${finding.format} tickets for your party cost ${value.toFixed(2)} there`;
  }
  const which = finding.label ? ` (${finding.label})` : '';
  if (value === 0) return `it has a showing at the time you prefer${which}`;
  return value < 100
    ? `its best showing${which} is in the time you prefer, though not at its most typical start`
    : `its closest showing${which} is ${value - 100} minutes outside the time you prefer`;
}

/** When the best showtime option of the time stage starts, counted across days. */
export function startOf(spec: UiSpec, option: RankedOption | undefined): number {
  const item = option && spec.items.find((i) => i.id === option.itemId);
  if (!item) return Number.NaN;
  const minutes = itemStart(item);
  const day = Date.parse(spec.state.booking?.date ?? '') / 86_400_000;
  return (Number.isFinite(day) ? day : 0) * 1440 + minutes;
}

function clockMinutes(value: string): number {
  const m = /(\d{1,2}):(\d{2})/.exec(value);
  return m ? Number(m[1]) * 60 + Number(m[2]) : Number.NaN;
}

export function clock(value: number): string {
  const minutes = ((value % 1440) + 1440) % 1440;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
