import type { HardConstraint } from '@usher/booking';
import type { Item, UiSpec } from '@usher/protocol';
import { sentence } from './explain.ts';
import { money, num } from './fields.ts';
import { judgedHere, showMix, wantedMix } from './judge.ts';
import { mixSize, ofKind } from './model.ts';
import type { FailingConstraint, PreferenceModel, StageDecision } from './types.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The seats chosen: the counter's `meta.maxTotal`, else the summary's seats. */
function seatsChosen(spec: UiSpec): number {
  const max = spec.meta?.maxTotal;
  return typeof max === 'number' ? max : (spec.state.booking?.seats?.length ?? 0);
}

/**
 * The ticket stage: one ticket per seat. A hard `ticketMix` is taken as it is and must add up
 * to the seats chosen; without one, a soft mix that adds up; else every ticket is an adult's (or
 * of the first type on offer when there is no adult type). `quantities` names every ticket type
 * of the stage, 0 for the unused ones, so the planner can reset what the participant set.
 * A hard `price` limit is checked against the tickets alone (seat surcharges only add to it).
 */
export function decideTickets(spec: UiSpec, model: PreferenceModel): StageDecision {
  const seats = seatsChosen(spec);
  const currency = spec.state.booking?.currency;
  const types = new Map(spec.items.map((item) => [item.id, item]));
  const visible = new Set(spec.visibleItems.map((item) => item.id));
  const hard = judgedHere('ticket', model.hard);
  const failing: FailingConstraint[] = [];
  const deadEnd = (list: FailingConstraint[], backTo?: 'seat'): StageDecision => ({
    stage: 'ticket',
    kind: 'dead-end',
    failing: list,
    summary: sentence(list.map((f) => f.detail).join('; ')),
    ...(backTo && { backTo }),
  });

  for (const c of ofKind(hard, 'seatCount')) {
    if (c.count !== seats) {
      failing.push({
        constraint: c,
        detail: `${plural(seats, 'seat')} ${seats === 1 ? 'is' : 'are'} selected but you want exactly ${c.count}; change the seats first`,
      });
    }
  }
  const [mix] = ofKind(hard, 'ticketMix');
  // Too many or too few seats for the party: the seat stage is where that changes.
  const seatsWrong = failing.length > 0 || (mix !== undefined && mixSize(mix) !== seats);
  if (mix) failing.push(...mixProblems(mix, seats, types, visible));
  if (failing.length > 0) return deadEnd(failing, seatsWrong ? 'seat' : undefined);

  const { quantities, why } = chooseMix(mix, model, seats, types);
  const price = (id: string) => {
    const item = types.get(id);
    return item ? num(item, 'price') || 0 : 0;
  };
  const lines = Object.entries(quantities).filter(([, n]) => n > 0);
  const cost = Math.round(lines.reduce((sum, [id, n]) => sum + n * price(id), 0) * 100) / 100;
  const breakdown = lines
    .map(([id, n]) => `${n} × ${types.get(id)?.value ?? id} at ${money(price(id), currency)}`)
    .join(' + ');
  const [cap] = ofKind(hard, 'price');
  if (cap && cost > cap.maxTotal) {
    return deadEnd([
      {
        constraint: cap,
        detail: `the tickets alone cost ${money(cost, currency)} (${breakdown}), over your limit of ${money(cap.maxTotal, currency)}`,
      },
    ]);
  }
  const budget = cap ? `, within your ${money(cap.maxTotal, currency)} limit` : '';
  const reason = `${breakdown || 'no tickets'} for your ${plural(seats, 'seat')}${why}: ${money(cost, currency)} before any seat surcharge${budget}`;
  return { stage: 'ticket', kind: 'tickets', quantities, reason };
}

function mixProblems(
  mix: Extract<HardConstraint, { kind: 'ticketMix' }>,
  seats: number,
  types: ReadonlyMap<string, Item>,
  visible: ReadonlySet<string>,
): FailingConstraint[] {
  const wanted = wantedMix(mix);
  const out: FailingConstraint[] = [];
  if (mixSize(mix) !== seats) {
    out.push({
      constraint: mix,
      detail: `you want ${plural(mixSize(mix), 'ticket')} (${showMix(wanted)}) but ${plural(seats, 'seat')} ${seats === 1 ? 'is' : 'are'} selected; every seat takes one ticket`,
    });
  }
  for (const [id, n] of Object.entries(wanted)) {
    if (n === 0) continue;
    if (!types.has(id)) out.push({ constraint: mix, detail: `this cinema sells no ${id} tickets` });
    else if (!visible.has(id))
      out.push({ constraint: mix, detail: `the ${id} ticket is hidden by the current filter` });
  }
  return out;
}

function chooseMix(
  mix: Extract<HardConstraint, { kind: 'ticketMix' }> | undefined,
  model: PreferenceModel,
  seats: number,
  types: ReadonlyMap<string, Item>,
): { quantities: Record<string, number>; why: string } {
  const quantities: Record<string, number> = Object.fromEntries([...types.keys()].map((id) => [id, 0]));
  const fill = (wanted: Record<string, number>) => {
    for (const [id, n] of Object.entries(wanted)) if (n > 0) quantities[id] = n;
  };
  if (mix) {
    fill(wantedMix(mix));
    return { quantities, why: ', as you asked' };
  }
  const soft = ofKind(model.soft, 'ticketMix').find(
    (c) => mixSize(c) === seats && Object.entries(wantedMix(c)).every(([id, n]) => n === 0 || types.has(id)),
  );
  if (soft) {
    fill(wantedMix(soft));
    return { quantities, why: ', as you prefer' };
  }
  const type = types.has('adult') ? 'adult' : [...types.keys()][0];
  if (type !== undefined && seats > 0) quantities[type] = seats;
  return { quantities, why: ` (no ticket mix given, so ${type ?? 'adult'} tickets)` };
}
