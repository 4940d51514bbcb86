import type { HardConstraint } from '@usher/booking';
import { type Item, STAGES, type UiSpec } from '@usher/protocol';
import { decideSeats } from './decide-seats.ts';
import { hiddenNote, observe, sentence, stageNoun, wish } from './explain.ts';
import { dateLabel, money, num, text } from './fields.ts';
import { DECIDED_AT, judgeBooking, judgedHere, judgeOption, kindMet, midRow, seatInRows, together } from './judge.ts';
import { mixSize } from './model.ts';
import { scoreOption } from './rank.ts';
import { readLayout, readSeats } from './seats.ts';
import { decideTickets } from './tickets.ts';
import type { FailingConstraint, OptionStage, PreferenceModel, RankedOption, StageDecision, Verdict } from './types.ts';

/**
 * Decides the stage on screen under the participant's constraints (spec §6): the options that
 * meet every hard constraint this stage can judge, best first by the soft ones; the seats, the
 * ticket quantities, or the go-ahead to confirm; or a dead-end naming the constraints that rule
 * everything out. Pure: the same spec and model always give the same decision.
 */
export function decideStage(spec: UiSpec, model: PreferenceModel, chosen: EarlierChoices = {}): StageDecision {
  const earlier = earlierChoiceBreaks(spec, model, chosen) ?? seatChoiceBreaks(spec, model, chosen.seatMap);
  if (earlier) return earlier;
  switch (spec.stage) {
    case 'movie':
    case 'theater':
    case 'date':
    case 'time':
      return decideOptions(spec.stage, spec, model);
    case 'seat':
      return decideSeats(spec, model);
    case 'ticket':
      return decideTickets(spec, model);
    case 'confirm':
      return decideConfirm(spec, model);
  }
}

/**
 * A choice made on an earlier stage that breaks a wish (one the participant said after it was
 * made): a dead-end sent back to the earliest such stage, so the agent does not book on past it.
 * The summary shows a film's title and a theater's name only; what a film is (its genres, ratings)
 * and how far a theater is are judged on the item its stage showed (`chosen`), when the agent saw it.
 */
function earlierChoiceBreaks(spec: UiSpec, model: PreferenceModel, chosen: EarlierChoices): StageDecision | null {
  const booking = spec.state.booking;
  if (!booking) return null;
  const here = STAGES.indexOf(spec.stage);
  const seen = {
    movie: chosen.movie && chosen.movie.id === booking.movie?.id ? chosen.movie : undefined,
    theater: chosen.theater && chosen.theater.id === booking.theater?.id ? chosen.theater : undefined,
  };
  const failing = model.hard.flatMap((constraint) => {
    const onItem = ITEM_STAGES.find((stage) => seen[stage] && ITEM_KINDS[stage].includes(constraint.kind));
    const decidedAt = onItem ?? DECIDED_AT[constraint.kind];
    if (!decidedAt || STAGES.indexOf(decidedAt) >= here) return [];
    const item = onItem && seen[onItem];
    const verdict = onItem && item ? judgeOption(onItem, constraint, item) : judgeBooking(constraint, booking);
    return verdict && !verdict.ok ? [{ constraint, detail: verdict.detail, decidedAt }] : [];
  });
  const first = failing.map((f) => f.decidedAt).sort((a, b) => STAGES.indexOf(a) - STAGES.indexOf(b))[0];
  if (!first) return null;
  return {
    stage: spec.stage,
    kind: 'dead-end',
    failing: failing.map(({ constraint, detail }) => ({ constraint, detail })),
    summary: sentence(`What is chosen so far no longer fits: ${failing.map((f) => f.detail).join('; ')}`),
    backTo: first,
  };
}

/** What the agent saw when it chose: the film's and the theater's items and the seat map, which the summary does not show. */
export interface EarlierChoices {
  movie?: Item;
  theater?: Item;
  /** The seat stage the seats were chosen on. */
  seatMap?: UiSpec;
}

/**
 * Seats chosen before a wish about them was said ("nothing in the first 4 rows", "we'd love the
 * recliners", after the seats were taken): judged again on the seat map they were chosen on, on
 * every stage after it, and sent back to the seat stage when they break it.
 */
function seatChoiceBreaks(spec: UiSpec, model: PreferenceModel, seatMap?: UiSpec): StageDecision | null {
  if (!seatMap || STAGES.indexOf(spec.stage) <= STAGES.indexOf('seat')) return null;
  const chosenIds = spec.state.booking?.seats ?? seatMap.state.selectedList ?? [];
  const all = readSeats(seatMap);
  const seats = chosenIds.flatMap((id) => all.filter((s) => s.id === id));
  if (seats.length === 0 || seats.length !== chosenIds.length) return null;
  const layout = readLayout(seatMap, all);
  const failing = model.hard.flatMap((c): FailingConstraint[] => {
    if (c.kind === 'rows') {
      const bad = seats.filter((s) => !seatInRows(c, s, layout));
      return bad.length > 0
        ? [{ constraint: c, detail: `seat ${bad.map((s) => s.id).join(', ')} is in a row you ruled out` }]
        : [];
    }
    if (c.kind === 'rowMiddle') {
      const bad = seats.filter((s) => !midRow(s, layout));
      return bad.length > 0
        ? [{ constraint: c, detail: `seat ${bad.map((s) => s.id).join(', ')} is not in the middle of its row` }]
        : [];
    }
    if (c.kind === 'seatKind' && !kindMet(c, seats)) {
      return [{ constraint: c, detail: `seats ${seats.map((s) => s.id).join(', ')} are not ${c.seatKind} seats` }];
    }
    if (c.kind === 'adjacent' && !together(seats, layout)) {
      return [{ constraint: c, detail: `seats ${seats.map((s) => s.id).join(', ')} are not side by side` }];
    }
    return [];
  });
  if (failing.length === 0) return null;
  return {
    stage: spec.stage,
    kind: 'dead-end',
    failing,
    summary: sentence(`The seats chosen no longer fit: ${failing.map((f) => f.detail).join('; ')}`),
    backTo: 'seat',
  };
}

/** What a film or a theater is, which the booking summary does not show: judged on its own item. */
const ITEM_STAGES = ['movie', 'theater'] as const;
const ITEM_KINDS: Record<(typeof ITEM_STAGES)[number], readonly HardConstraint['kind'][]> = {
  movie: ['genre', 'rating', 'ageRating', 'runtime'],
  theater: ['distance'],
};

interface Judged {
  item: Item;
  /** One per judged hard constraint, in the model's order. */
  verdicts: Array<Verdict | undefined>;
}

const passes = (v: Verdict | undefined) => v?.ok !== false;

function decideOptions(stage: OptionStage, spec: UiSpec, model: PreferenceModel): StageDecision {
  const hard = judgedHere(stage, model.hard);
  // A host may list films and theaters in any order, even one shuffled per session, so ties go by
  // what the items show: the nearer theater where the stage shows distances; the better rated film
  // where it shows ratings, then the film's title. Then to the catalog order (`items`), not to a
  // sort someone applied to the view.
  const order = new Map(spec.items.map((item, n) => [item.id, n]));
  const byId = new Map(spec.items.map((item) => [item.id, item]));
  const field = (id: string, key: string) => {
    const item = byId.get(id);
    return item ? num(item, key) : Number.NaN;
  };
  const lower = (x: number, y: number) => (Number.isFinite(x) && Number.isFinite(y) ? x - y : 0);
  const nearer = (a: string, b: string) =>
    stage === 'theater' ? lower(field(a, 'distanceKm'), field(b, 'distanceKm')) : 0;
  const betterRated = (a: string, b: string) => (stage === 'movie' ? lower(field(b, 'rating'), field(a, 'rating')) : 0);
  const titled = (id: string) => {
    const item = byId.get(id);
    return item ? text(item, 'title') || item.value : '';
  };
  const byTitle = (a: string, b: string) =>
    stage === 'movie' ? titled(a).localeCompare(titled(b), 'en', { sensitivity: 'base' }) : 0;
  const judged: Judged[] = spec.visibleItems
    .filter((item) => item.isDisabled !== true)
    .map((item) => ({ item, verdicts: hard.map((c) => judgeOption(stage, c, item)) }));
  const passing = judged.filter((j) => j.verdicts.every(passes));
  if (passing.length === 0) return optionsDeadEnd(stage, spec, hard, judged);

  const pool = passing.map((j) => j.item);
  const options: RankedOption[] = passing
    .map(({ item, verdicts }) => {
      const { score, notes } = scoreOption(stage, item, pool, model);
      const parts = [...new Set([...verdicts.flatMap((v) => (v ? [v.detail] : [])), ...notes])];
      const why = parts.length > 0 ? parts.join('; ') : 'nothing you asked for depends on this choice';
      return { itemId: item.id, label: item.value, score, reason: `${item.value}: ${why}`, why };
    })
    .sort(
      (a, b) =>
        b.score - a.score ||
        nearer(a.itemId, b.itemId) ||
        betterRated(a.itemId, b.itemId) ||
        byTitle(a.itemId, b.itemId) ||
        (order.get(a.itemId) ?? 0) - (order.get(b.itemId) ?? 0),
    );
  return { stage, kind: 'options', options };
}

/**
 * Each hard constraint that ruled out an option, with what the stage offers on it among the
 * options meeting the others ("no showtime on Sun 22 Nov starting at or after 18:00: among those
 * in IMAX, the latest starts at 16:30"). Constraints that alone would leave an option come first.
 */
function optionsDeadEnd(
  stage: OptionStage,
  spec: UiSpec,
  hard: readonly HardConstraint[],
  judged: readonly Judged[],
): StageDecision {
  const { noun, where } = stageNoun(stage, spec);
  if (judged.length === 0) {
    const what =
      stage === 'time' && spec.visibleItems.length > 0
        ? `every showtime${where} is sold out`
        : `no ${noun}${where} is available`;
    return { stage, kind: 'dead-end', failing: [], summary: sentence(`${what}${hiddenNote(spec)}`) };
  }
  const eliminating = hard.flatMap((_c, k) => (judged.some((j) => !passes(j.verdicts[k])) ? [k] : []));
  const found = eliminating.map((k) => {
    const c = hard[k] as HardConstraint;
    const others = eliminating.filter((x) => x !== k);
    const pool = judged.filter((j) => others.every((x) => passes(j.verdicts[x]))).map((j) => j.item);
    const among =
      pool.length > 0 && others.length > 0
        ? `among those ${others.map((x) => wish(hard[x] as HardConstraint)).join(', ')}, `
        : '';
    const all = judged.map((j) => j.item);
    const seen = `${among}${observe(c, pool.length > 0 ? pool : all, all)}`;
    return { constraint: c, detail: `no ${noun}${where} ${wish(c)}: ${seen}`, seen, alone: pool.length > 0 };
  });
  found.sort((a, b) => Number(b.alone) - Number(a.alone));
  const first = found[0];
  const summary = `no ${noun}${where} ${found.map((f) => wish(f.constraint)).join(', ')}${first ? `: ${first.seen}` : ''}`;
  return {
    stage,
    kind: 'dead-end',
    failing: found.map(({ constraint, detail }) => ({ constraint, detail })),
    summary: sentence(`${summary}${hiddenNote(spec)}`),
  };
}

/**
 * A party said again after the seats or tickets were chosen ("my brother's kids can't come after
 * all, so it's just me and my daughter"): the seat stage when the seats no longer match it (the
 * same showing may have the right number), the ticket stage when only the tickets do.
 */
function partyBackTo(failing: readonly FailingConstraint[], seats: number): { backTo?: 'seat' | 'ticket' } {
  const party = (kind: string) => kind === 'seatCount' || kind === 'ticketMix';
  if (!failing.every((f) => party(f.constraint.kind))) return {};
  const seatsWrong = failing.some(
    (f) => f.constraint.kind === 'seatCount' || (f.constraint.kind === 'ticketMix' && mixSize(f.constraint) !== seats),
  );
  return { backTo: seatsWrong ? 'seat' : 'ticket' };
}

/** The last check before the irreversible submit, on what the summary shows (price above all). */
function decideConfirm(spec: UiSpec, model: PreferenceModel): StageDecision {
  const booking = spec.state.booking ?? {};
  const judged = judgedHere('confirm', model.hard).map((constraint) => ({
    constraint,
    verdict: judgeBooking(constraint, booking),
  }));
  const failing = judged.flatMap(({ constraint, verdict }) =>
    verdict && !verdict.ok ? [{ constraint, detail: verdict.detail }] : [],
  );
  if (failing.length > 0) {
    // Over the price limit only because of seat surcharges: other seats can fix it.
    const tickets = (booking.tickets ?? []).reduce((sum, t) => sum + t.quantity * t.unitPrice, 0);
    // (Only when the summary lists the tickets: a host without a ticket stage prices its seats.)
    const bySeats =
      (booking.tickets?.length ?? 0) > 0 &&
      failing.every((f) => f.constraint.kind === 'price' && tickets <= f.constraint.maxTotal);
    return {
      stage: 'confirm',
      kind: 'dead-end',
      failing,
      summary: sentence(failing.map((f) => f.detail).join('; ')),
      ...(bySeats ? { backTo: 'seat' as const } : partyBackTo(failing, booking.seats?.length ?? 0)),
    };
  }
  const s = booking.showing;
  const what = [
    [
      booking.movie?.title,
      booking.theater && `at ${booking.theater.name}`,
      booking.date && `on ${dateLabel(booking.date)}`,
    ]
      .filter(Boolean)
      .join(' '),
    s && `${s.time} ${s.format}`,
    booking.seats?.length && `seats ${booking.seats.join(' ')}`,
    booking.total !== undefined && `total ${money(booking.total, booking.currency)}`,
  ].filter(Boolean);
  const checks = judged.flatMap(({ verdict }) => (verdict?.ok ? [verdict.detail] : []));
  return {
    stage: 'confirm',
    kind: 'confirm',
    reason: `Book ${what.join(', ')}${checks.length ? `: ${checks.join('; ')}` : ''}`,
  };
}
