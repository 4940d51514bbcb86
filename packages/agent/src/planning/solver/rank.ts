import { type Constraint, type HardConstraint, type TypicalStart, typicality, typicalStartOf } from '@usher/booking';
import type { Item } from '@usher/protocol';
import { list, num, text } from './fields.ts';
import {
  judgeOption,
  kindMet,
  midRow,
  type SeatLayout,
  type SeatView,
  seatInRows,
  startOf,
  together,
} from './judge.ts';
import { asHard, ofKind } from './model.ts';
import type { OptionStage, PreferenceModel } from './types.ts';

/*
 * Scores, higher is better. Every soft constraint adds weight × a score in 0..1, so one wish met
 * outweighs any number of hints and defaults (README.md, "Scoring"):
 * - a hard kind used softly: 1 when it holds, else 0 (seat sets: the share of seats that meet it);
 * - a preference: where the option sits between the worst (0) and the best (1) of the options
 *   that pass the hard constraints, linear, as the checker scores preferences.
 */
export const WEIGHTS = {
  /** Each soft constraint, preference or not. */
  soft: 1,
  /** A theater advertising an amenity a format or seat-kind wish needs (IMAX, 3D, wheelchair access). */
  hint: 0.5,
  /** Seats of a party kept side by side when no constraint speaks of adjacency. */
  together: 0.25,
  /** Central seats when no `centered` preference is given (so the default is not the front corner). */
  centring: 0.1,
  /** Seats without a surcharge when no wish speaks of price or seat kind: no premium nobody asked for. */
  noSurcharge: 0.15,
} as const;

/** Where `value` sits between the worst and the best of `values`: 1 is the best (the checker's `relative`). */
export function relative(value: number, values: readonly number[], higherIsBetter: boolean): number {
  const best = higherIsBetter ? Math.max(...values) : Math.min(...values);
  const worst = higherIsBetter ? Math.min(...values) : Math.max(...values);
  if (best === worst) return 1;
  return Math.min(1, Math.max(0, (value - worst) / (best - worst)));
}

/** A score with the phrases that explain it. */
export interface Scored {
  score: number;
  notes: string[];
}

const round = (n: number) => Math.round(n * 1000) / 1000;
const dayNumber = (item: Item) => Date.parse(text(item, 'date') || item.id);

/** Formats by likely price: Standard carries no premium-format surcharge; the stage shows no prices. */
const formatCost = (item: Item) => (text(item, 'format') === 'Standard' ? 0 : 1);

/**
 * A preference on one option of a choice stage, against the `pool` of options that pass the hard
 * constraints; undefined where the stage shows nothing it could use.
 */
function preference(stage: OptionStage, kind: string, item: Item, pool: readonly Item[]): Scored | undefined {
  const best = (s: number, note: string): Scored => ({ score: s, notes: s === 1 && pool.length > 1 ? [note] : [] });
  switch (`${stage}:${kind}`) {
    case 'movie:highestRated':
      return best(
        relative(
          num(item, 'rating'),
          pool.map((i) => num(i, 'rating')),
          true,
        ),
        `the highest rated here (${num(item, 'rating')})`,
      );
    case 'theater:closest':
      return best(
        relative(
          num(item, 'distanceKm'),
          pool.map((i) => num(i, 'distanceKm')),
          false,
        ),
        `the closest (${num(item, 'distanceKm')} km)`,
      );
    case 'date:earliest':
      return best(relative(dayNumber(item), pool.map(dayNumber), false), 'the earliest day');
    case 'time:earliest':
    case 'time:latest':
      return best(relative(startOf(item), pool.map(startOf), kind === 'latest'), `the ${kind} showtime that fits`);
    case 'time:cheapest':
      return {
        ...best(relative(formatCost(item), pool.map(formatCost), false), 'Standard format, no premium surcharge'),
        // Among premium formats alone the stage cannot tell which is cheaper: nothing to say.
        ...(formatCost(item) > 0 && { notes: [] }),
      };
    default:
      return undefined;
  }
}

/** An amenity a wish needs, and how a theater's amenity is recognized as it. */
interface Amenity {
  name: string;
  is: (advertised: string) => boolean;
}
const named = (name: string): Amenity => ({ name, is: (a) => a.toLowerCase() === name.toLowerCase() });
/** Premium seats go by many names: "Recliner Seating", "Premium seats", "VIP lounge", "luxury recliners". */
const PREMIUM_SEATING: Amenity = { name: 'premium seating', is: (a) => /recliner|premium|luxury|vip|lounge/i.test(a) };

/** Amenities a theater should advertise for the wanted formats and seat kinds. */
function wantedAmenities(model: PreferenceModel): Amenity[] {
  const all = [...model.hard, ...model.soft];
  const formats = ofKind(all, 'format').flatMap((c) => c.is ?? []);
  const wanted: Amenity[] = [...new Set(formats.filter((f) => f !== 'Standard'))].map(named);
  const kinds = ofKind(all, 'seatKind');
  if (kinds.some((c) => c.seatKind === 'wheelchair')) wanted.push(named('wheelchair access'));
  if (kinds.some((c) => c.seatKind === 'premium')) wanted.push(PREMIUM_SEATING);
  return wanted;
}

/** Scores one option of a choice stage by the soft constraints, plus hints on the theater stage. */
export function scoreOption(stage: OptionStage, item: Item, pool: readonly Item[], model: PreferenceModel): Scored {
  let score = 0;
  const notes: string[] = [];
  for (const c of model.soft) {
    const hard = asHard(c);
    const s = hard ? softVerdict(stage, hard, item) : preference(stage, c.kind, item, pool);
    if (!s) continue;
    score += WEIGHTS.soft * s.score;
    notes.push(...s.notes);
  }
  if (stage === 'time') {
    const hint = typicalHint(item, pool, model);
    score += hint.score;
    notes.push(...hint.notes);
  }
  if (stage === 'theater') {
    const wanted = wantedAmenities(model);
    const has = (i: Item) => wanted.filter((a) => list(i, 'amenities').some((x) => a.is(x)));
    const own = has(item);
    if (wanted.length > 0) score += (WEIGHTS.hint * own.length) / wanted.length;
    // Worth saying only when it sets this theater apart.
    if (own.length > 0 && pool.some((i) => has(i).length < own.length))
      notes.push(`advertises ${own.map((a) => a.name).join(', ')}`);
  }
  return { score: round(score), notes };
}

function softVerdict(stage: OptionStage, c: HardConstraint, item: Item): Scored | undefined {
  const v = judgeOption(stage, c, item);
  if (!v) return undefined;
  // A named part of the day ("preferably in the evening"): how typical the start is, as the checker scores it.
  const typical = stage === 'time' && c.kind === 'startTime' ? typicalStartOf(c) : undefined;
  if (typical && v.ok) {
    const score = typicality(startOf(item), typical);
    return { score, notes: [`as you prefer: ${v.detail}; ${typicalNote(typical, score)}`] };
  }
  return { score: v.ok ? 1 : 0, notes: [v.ok ? `as you prefer: ${v.detail}` : `misses a wish: ${v.detail}`] };
}

/** How the agent says how typical a start is for the part of the day. */
function typicalNote(t: TypicalStart, score: number): string {
  if (score === 1) return `a typical ${t.period} start`;
  return score >= 0.75 ? `within the typical ${t.period} hours` : `outside the typical ${t.period} hours`;
}

/**
 * A hard window that is a named part of the day ("tonight", "Sunday afternoon"): among the starts
 * inside it, the typical ones first, as a hint (a hard window ranks no option by itself).
 */
function typicalHint(item: Item, pool: readonly Item[], model: PreferenceModel): Scored {
  let score = 0;
  const notes: string[] = [];
  for (const c of ofKind(model.hard, 'startTime')) {
    const typical = typicalStartOf(c);
    if (!typical) continue;
    const own = typicality(startOf(item), typical);
    score += WEIGHTS.hint * own;
    // Worth saying only when it sets this showtime apart.
    if (own >= 0.75 && pool.some((i) => typicality(startOf(i), typical) < own)) notes.push(typicalNote(typical, own));
  }
  return { score, notes };
}

/** The checker's centring: 1 for the middle seat of the middle row, 0 at a corner. */
export function centring(seat: SeatView, layout: SeatLayout): number {
  const halfWidth = Math.max(1, (layout.seatsPerRow - 1) / 2);
  const halfDepth = Math.max(1, (layout.rows.length - 1) / 2);
  const h = Math.abs(seat.number - (layout.seatsPerRow + 1) / 2) / halfWidth;
  const v = Math.abs(seat.rowIndex - (layout.rows.length - 1) / 2) / halfDepth;
  return 1 - (h + v) / 2;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** What seat scoring needs beyond the set: the layout and the surcharge range of the free seats. */
export interface SeatScoring {
  layout: SeatLayout;
  surcharges: readonly number[];
  /** Whether any constraint (hard or soft) speaks of adjacency; if not, a party is kept together by default. */
  adjacencyGiven: boolean;
}

/** Scores a seat set by the soft constraints and the seat defaults (together, central). */
export function scoreSeats(seats: readonly SeatView[], soft: readonly Constraint[], ctx: SeatScoring): Scored {
  let score = 0;
  const notes: string[] = [];
  const add = (s: number, note?: string) => {
    score += WEIGHTS.soft * s;
    if (note) notes.push(note);
  };
  const isTogether = together(seats, ctx.layout);
  const central = mean(seats.map((s) => centring(s, ctx.layout)));
  for (const c of soft) {
    switch (c.kind) {
      case 'centered': {
        // "The middle of the row, not at either end": every seat in the middle of its row counts
        // as much as a wish met; how central in the room breaks ties.
        const mid = seats.length > 0 && seats.every((s) => midRow(s, ctx.layout));
        add(central + (mid ? 1 : 0), mid ? 'in the middle of the row' : 'misses a wish: not in the middle of the row');
        break;
      }
      case 'cheapest': {
        const s = mean(seats.map((seat) => relative(seat.surcharge, ctx.surcharges, false)));
        add(s, s === 1 && new Set(ctx.surcharges).size > 1 ? 'the cheapest seats' : undefined);
        break;
      }
      case 'adjacent':
        add(isTogether ? 1 : 0, isTogether && seats.length > 1 ? undefined : 'misses a wish: not side by side');
        break;
      case 'rowMiddle': {
        const share = mean(seats.map((s) => (midRow(s, ctx.layout) ? 1 : 0)));
        add(share, share === 1 ? 'in the middle of the row' : 'misses a wish: not all in the middle of the row');
        break;
      }
      case 'rows': {
        const share = mean(seats.map((s) => (seatInRows(c, s, ctx.layout) ? 1 : 0)));
        add(share, share === 1 ? 'in the rows you prefer' : 'misses a wish: not all in the rows you prefer');
        break;
      }
      case 'seatKind': {
        const have = seats.filter((s) => s.kind === c.seatKind).length;
        const s = c.count === undefined ? have / Math.max(1, seats.length) : Math.min(1, have / c.count);
        add(s, kindMet(c, seats) ? `${c.seatKind} as you prefer` : `misses a wish: fewer ${c.seatKind} seats`);
        break;
      }
      case 'seatCount':
        add(seats.length === c.count ? 1 : 0);
        break;
      default:
        break;
    }
  }
  if (!ctx.adjacencyGiven && seats.length > 1 && isTogether) score += WEIGHTS.together;
  if (!soft.some((c) => c.kind === 'centered')) score += WEIGHTS.centring * central;
  if (!soft.some((c) => c.kind === 'cheapest' || c.kind === 'seatKind')) {
    score += WEIGHTS.noSurcharge * mean(seats.map((seat) => relative(seat.surcharge, ctx.surcharges, false)));
  }
  return { score: round(score), notes };
}
