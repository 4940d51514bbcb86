import type { Constraint, HardConstraint } from '@usher/booking';
import type { UiSpec } from '@usher/protocol';
import { hiddenNote, rowsWish, sentence, wish } from './explain.ts';
import { money, num, orList, some } from './fields.ts';
import { judgedHere, midRow, type SeatLayout, type SeatView, showMix, together, wantedMix } from './judge.ts';
import { mixSize, ofKind } from './model.ts';
import { type SeatScoring, scoreSeats } from './rank.ts';
import {
  candidateSets,
  longestRun,
  readLayout,
  readSeats,
  type SeatRules,
  seatAllowed,
  seatMeets,
  seatRules,
} from './seats.ts';
import type { FailingConstraint, PreferenceModel, RankedSeats, StageDecision } from './types.ts';

/** At most this many seat sets are returned, best first. */
export const MAX_SEAT_SETS = 20;

const ids = (seats: readonly SeatView[]) => seats.map((s) => s.id).join(', ');
/** Earlier seats in catalog order first, seat by seat. */
const catalogOrder = (a: readonly SeatView[], b: readonly SeatView[]) => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = (a[i]?.order ?? 0) - (b[i]?.order ?? 0);
    if (d !== 0) return d;
  }
  return a.length - b.length;
};
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The seat stage: sets of the required size that meet every hard seat constraint and keep the
 * participant's seats, best first. When their seats break a hard constraint, or no set fits,
 * a dead-end says which constraint and why (the solver never proposes deselecting a seat).
 */
export function decideSeats(spec: UiSpec, model: PreferenceModel): StageDecision {
  const seats = readSeats(spec);
  const layout = readLayout(spec, seats);
  const byId = new Map(seats.map((s) => [s.id, s]));
  const selected = (spec.state.selectedList ?? []).flatMap((id) => byId.get(id) ?? []);
  const hard = judgedHere('seat', model.hard);
  const deadEnd = (failing: FailingConstraint[], summary: string, backTo?: 'seat'): StageDecision => ({
    stage: 'seat',
    kind: 'dead-end',
    failing,
    summary: sentence(summary),
    ...(backTo && { backTo }),
  });

  const [count] = ofKind(hard, 'seatCount');
  const mix = ofKind(hard, 'ticketMix').find((c) => mixSize(c) > 0);
  if (count && mix && count.count !== mixSize(mix)) {
    const detail = `you want ${plural(count.count, 'seat')} but ${plural(mixSize(mix), 'ticket')} (${showMix(wantedMix(mix))}); every seat takes one ticket`;
    return deadEnd(
      [
        { constraint: count, detail },
        { constraint: mix, detail },
      ],
      `The story cannot be met: ${detail}`,
    );
  }

  const rules = seatRules(hard, model.soft, selected.length);
  const maxSeats = spec.meta?.maxSeats;
  const fixed = hard.find((c) => c.kind === 'seatCount' || c.kind === 'ticketMix');
  if (fixed && typeof maxSeats === 'number' && rules.size > maxSeats) {
    const detail = `you want ${plural(rules.size, 'seat')} but the cinema takes at most ${maxSeats} per booking`;
    return deadEnd([{ constraint: fixed, detail }], detail);
  }
  const own = selectionProblems(selected, hard, rules, layout);
  if (own.length > 0) return deadEnd(own, `Your seats break a wish: ${own.map((f) => f.detail).join('; ')}`, 'seat');

  // Under a price cap, seat surcharges count against it: rank the cheaper seats first.
  const capped = model.hard.some((c) => c.kind === 'price') && !model.soft.some((c) => c.kind === 'cheapest');
  const soft: Constraint[] = capped ? [...model.soft, { kind: 'cheapest' }] : model.soft;
  const free = seats.filter((s) => s.free);
  const ctx: SeatScoring = {
    layout,
    surcharges: free.map((s) => s.surcharge),
    adjacencyGiven: [...model.hard, ...model.soft].some((c) => c.kind === 'adjacent'),
  };
  const seatScore = (seat: SeatView) => scoreSeats([seat], soft, ctx).score;
  const sets = candidateSets(seats, selected, rules, layout, seatScore);
  if (sets.length === 0) {
    const decision = seatDeadEnd(spec, model, seats, selected, layout, hard);
    // The seats already selected are what fails (apart, say): other seats of this showing fit.
    const fitsAfresh =
      selected.length > 0 && candidateSets(seats, [], seatRules(hard, model.soft, 0), layout, () => 0).length > 0;
    return fitsAfresh && decision.kind === 'dead-end' ? { ...decision, backTo: 'seat' } : decision;
  }

  const currency = spec.state.booking?.currency;
  const overCap = priceCapFailing(spec, model, sets, currency);
  if (overCap) return deadEnd([overCap], overCap.detail);
  const ranked = sets
    .map((set) => ({ set: [...set].sort((a, b) => a.order - b.order), ...scoreSeats(set, soft, ctx) }))
    .sort((a, b) => b.score - a.score || catalogOrder(a.set, b.set));
  const options: RankedSeats[] = ranked.slice(0, MAX_SEAT_SETS).map(({ set, score, notes }) => ({
    seatIds: set.map((s) => s.id),
    toSelect: set.filter((s) => !selected.includes(s)).map((s) => s.id),
    score,
    reason: seatReason(set, selected, hard, layout, notes, currency),
  }));
  return { stage: 'seat', kind: 'seats', options };
}

function seatReason(
  set: readonly SeatView[],
  selected: readonly SeatView[],
  hard: readonly HardConstraint[],
  layout: SeatLayout,
  notes: readonly string[],
  currency: string | undefined,
): string {
  const rows = [...new Set(set.map((s) => s.row))];
  const first = set[0];
  const depth = first ? ` (${first.rowIndex + 1} of ${layout.rows.length} from the screen)` : '';
  const parts = [
    set.length > 1 && together(set, layout)
      ? `side by side in row ${rows[0]}${depth}`
      : `row${rows.length > 1 ? 's' : ''} ${rows.join(', ')}${rows.length === 1 ? depth : ''}`,
  ];
  for (const kind of ['premium', 'wheelchair']) {
    const these = set.filter((s) => s.kind === kind);
    const extra = these[0]?.surcharge ?? 0;
    if (these.length > 0) parts.push(`${these.length} ${kind}${extra > 0 ? ` (+${money(extra, currency)} each)` : ''}`);
  }
  for (const c of hard) {
    if (c.kind === 'rows') parts.push(`${rowsWish(c)} as wanted`);
    if (c.kind === 'rowMiddle') parts.push('in the middle of the row as wanted');
    if (c.kind === 'seatKind') parts.push(`${wish(c)} as wanted`);
  }
  parts.push(...notes);
  if (selected.length > 0) parts.push(`keeps your ${ids(selected)}`);
  return `${ids(set)}: ${parts.join('; ')}`;
}

/** Hard constraints the participant's own seats already break. */
function selectionProblems(
  selected: readonly SeatView[],
  hard: readonly HardConstraint[],
  rules: SeatRules,
  layout: SeatLayout,
): FailingConstraint[] {
  const out: FailingConstraint[] = [];
  const fixed = hard.find((c) => c.kind === 'seatCount' || c.kind === 'ticketMix');
  if (fixed && selected.length > rules.size) {
    out.push({
      constraint: fixed,
      detail: `you already selected ${plural(selected.length, 'seat')} (${ids(selected)}); the booking needs exactly ${rules.size}`,
    });
  }
  for (const c of rules.perSeat) {
    const bad = selected.filter((s) => !seatMeets(c, s, layout));
    if (bad.length > 0) {
      const where = (s: SeatView) =>
        c.kind === 'rows'
          ? `row ${s.row}`
          : c.kind === 'rowMiddle'
            ? `seat ${s.number} of ${layout.seatsPerRow}`
            : s.kind;
      const what = bad.map((s) => `${s.id} (${where(s)})`).join(', ');
      const want =
        c.kind === 'rows'
          ? `seats ${rowsWish(c)}`
          : c.kind === 'rowMiddle'
            ? 'seats in the middle of the row'
            : `${c.seatKind} seats`;
      out.push({ constraint: c, detail: `you selected ${what}, but you want ${want}` });
    }
  }
  return out;
}

/** Why no seat set fits: each constraint whose removal would leave sets, with what the room offers. */
function seatDeadEnd(
  spec: UiSpec,
  model: PreferenceModel,
  seats: readonly SeatView[],
  selected: readonly SeatView[],
  layout: SeatLayout,
  hard: readonly HardConstraint[],
): StageDecision {
  const rules = seatRules(hard, model.soft, selected.length);
  const free = seats.filter((s) => s.free);
  const room = `No ${plural(rules.size, 'seat')}`;
  if (free.length + selected.length < rules.size && free.length === 0) {
    return {
      stage: 'seat',
      kind: 'dead-end',
      failing: [],
      summary: sentence(`${room}: every seat is taken${hiddenNote(spec)}`),
    };
  }
  const fits = (list: readonly HardConstraint[]) =>
    candidateSets(seats, selected, seatRules(list, model.soft, selected.length), layout, () => 0).length > 0;
  // The party's size is the last thing to give up: name it only when nothing else would help.
  const isSize = (c: HardConstraint) => c.kind === 'seatCount' || c.kind === 'ticketMix';
  const blocking = hard.filter((c) => fits(hard.filter((x) => x !== c)));
  const named = blocking.some((c) => !isSize(c)) ? blocking.filter((c) => !isSize(c)) : blocking;
  const failing = (named.length > 0 ? named : hard).map((constraint) => ({
    constraint,
    detail: seatFailure(constraint, seats, selected, rules, layout),
  }));
  const wishes = hard.filter((c) => c.kind !== 'seatCount' && c.kind !== 'ticketMix').map(wish);
  const first = failing[0]?.detail ?? `only ${plural(free.length, 'free seat')} left`;
  return {
    stage: 'seat',
    kind: 'dead-end',
    failing,
    summary: sentence(`${room}${wishes.length ? ` ${wishes.join(', ')}` : ''}: ${first}${hiddenNote(spec)}`),
  };
}

/** `premium seats in rows G or H`: the seats the per-seat rules allow, as a noun phrase. */
function seatsPhrase(plural: boolean, perSeat: SeatRules['perSeat'], kind?: string): string {
  const kinds = new Set([
    ...perSeat.flatMap((c) => (c.kind === 'seatKind' ? [c.seatKind] : [])),
    ...(kind ? [kind] : []),
  ]);
  const rows = perSeat.flatMap((c) => (c.kind === 'rows' ? [rowsWish(c)] : []));
  const middle = perSeat.some((c) => c.kind === 'rowMiddle') ? ['in the middle of the row'] : [];
  return [`${[...kinds].map((k) => `${k} `).join('')}seat${plural ? 's' : ''}`, ...middle, ...rows].join(' ');
}

/** What the room offers on one failing seat constraint, among the seats the other rules allow. */
function seatFailure(
  c: HardConstraint,
  seats: readonly SeatView[],
  selected: readonly SeatView[],
  rules: SeatRules,
  layout: SeatLayout,
): string {
  const { size } = rules;
  const mine = new Set(selected.map((s) => s.id));
  const usable = (s: SeatView) => mine.has(s.id) || (s.free && seatAllowed(s, rules, layout));
  const count = (pick: (s: SeatView) => boolean) => seats.filter((s) => usable(s) && pick(s)).length;
  const only = (n: number, kind?: string) =>
    `only ${n} ${seatsPhrase(n !== 1, rules.perSeat, kind)} ${n === 1 ? 'is' : 'are'} free`;
  const n = count(() => true);
  const sideBySide = () => {
    if (selected.length > 1 && !together(selected, layout)) return `your seats ${ids(selected)} are not side by side`;
    const r = longestRun(seats, usable, layout);
    if (r.length < size) {
      return `the longest run of free ${seatsPhrase(true, rules.perSeat)} side by side is ${r.length}${r.row ? ` (row ${r.row})` : ''}; you need ${size}`;
    }
    // Runs long enough exist, but none holds what else the set must hold.
    const kinds = rules.counted.map((k) => `${k.count} ${k.seatKind}`);
    if (kinds.length > 0) return `no ${size} free seats side by side include ${orList(kinds, 'and')}`;
    return `no ${size} free seats side by side include your ${ids(selected)}`;
  };
  if (c.kind === 'adjacent') return sideBySide();
  if (c.kind === 'rowMiddle') return endsOnly(seats, selected, rules, layout);
  if (c.kind === 'seatKind' && c.count !== undefined) {
    const have = count((s) => s.kind === c.seatKind);
    if (have < c.count) return `${only(have, c.seatKind)}; you want at least ${c.count}`;
  }
  if (n < size) return `${only(n)}; you need ${size}`;
  return rules.adjacent ? sideBySide() : `no set of ${size} seats meets every seat wish`;
}

/**
 * Why nothing fits in the middle of the row: the seats the other wishes allow (of a counted kind
 * first, "no wheelchair space in the middle of a row") are all at or near an end.
 */
function endsOnly(
  seats: readonly SeatView[],
  selected: readonly SeatView[],
  rules: SeatRules,
  layout: SeatLayout,
): string {
  const others = { ...rules, perSeat: rules.perSeat.filter((c) => c.kind !== 'rowMiddle') };
  const mine = new Set(selected.map((s) => s.id));
  const usable = (s: SeatView) => mine.has(s.id) || (s.free && seatAllowed(s, others, layout));
  const middle = seats.filter((s) => midRow(s, layout)).map((s) => s.number);
  const span = middle.length
    ? ` (the middle is seats ${Math.min(...middle)}–${Math.max(...middle)} of ${layout.seatsPerRow})`
    : ` (a row of ${layout.seatsPerRow} has no middle)`;
  const ends = (list: readonly SeatView[]) =>
    `the free ${list.length === 1 ? 'one is' : 'ones are'} ${some(list.map((s) => s.id))}, ${list.length === 1 ? 'at or near an end' : 'all at or near an end'}${span}`;
  const kinds = [
    ...rules.counted.map((k) => ({ kind: k.seatKind, need: k.count ?? 1 })),
    ...rules.perSeat.flatMap((c) => (c.kind === 'seatKind' ? [{ kind: c.seatKind, need: rules.size }] : [])),
  ];
  for (const { kind, need } of kinds) {
    const ofKind = seats.filter((s) => usable(s) && s.kind === kind);
    const mid = ofKind.filter((s) => midRow(s, layout));
    if (mid.length >= need) continue;
    const noun = kind === 'wheelchair' ? 'wheelchair space' : `${kind} seat`;
    if (ofKind.length === 0) return `no free ${noun} at all`;
    return `no free ${noun} is in the middle of a row: ${ends(ofKind)}`;
  }
  const free = seats.filter(usable);
  const mid = free.filter((s) => midRow(s, layout));
  if (mid.length < rules.size) {
    return mid.length === 0
      ? `no free ${seatsPhrase(false, others.perSeat)} in the middle of a row${span}`
      : `only ${plural(mid.length, 'free seat')} in the middle of a row${span}; you need ${rules.size}`;
  }
  return `no ${rules.size} free seats side by side in the middle of a row${span}`;
}

/**
 * On a host that prices seats one by one (no ticket stage; the prototype's seats carry a `price`),
 * a hard price limit is judged here: when even the cheapest set of seats that fits costs more, no
 * seat of this showing does. Undefined when the limit holds, or a seat shows no price.
 */
function priceCapFailing(
  spec: UiSpec,
  model: PreferenceModel,
  sets: readonly (readonly SeatView[])[],
  currency: string | undefined,
): FailingConstraint | undefined {
  const [cap] = ofKind(model.hard, 'price');
  if (!cap || sets.length === 0) return undefined;
  const prices = new Map(spec.items.map((item) => [item.id, num(item, 'price')]));
  if (prices.size === 0 || [...prices.values()].some((p) => !Number.isFinite(p))) return undefined;
  const total = (set: readonly SeatView[]) =>
    Math.round(set.reduce((sum, seat) => sum + (prices.get(seat.id) ?? 0), 0) * 100) / 100;
  const cheapest = Math.min(...sets.map(total));
  if (cheapest <= cap.maxTotal) return undefined;
  const size = sets[0]?.length ?? 0;
  return {
    constraint: cap,
    detail: `the cheapest ${plural(size, 'seat')} that fit here cost ${money(cheapest, currency)}, over your limit of ${money(cap.maxTotal, currency)}`,
  };
}
