import { type Constraint, type HardConstraint, isPreference } from '@usher/booking';
import type { PreferenceModel } from './types.ts';

export { isPreference, type Preference } from '@usher/booking';

/** A hard kind used softly: scored 1 when it holds and 0 when not, like `checkBooking` does. */
export function asHard(c: Constraint): HardConstraint | undefined {
  return isPreference(c) ? undefined : c;
}

/** The constraints of one kind, hard then soft. */
export function ofKind<K extends HardConstraint['kind']>(
  list: readonly Constraint[],
  kind: K,
): Array<Extract<HardConstraint, { kind: K }>> {
  return list.filter((c): c is Extract<HardConstraint, { kind: K }> => c.kind === kind);
}

/** Seats a ticket mix stands for: one ticket per seat. */
export function mixSize(c: Extract<HardConstraint, { kind: 'ticketMix' }>): number {
  return (c.adult ?? 0) + (c.child ?? 0) + (c.senior ?? 0);
}

/** How many seats the booking needs, and which constraint says so. */
export interface SeatNeed {
  count: number;
  /** The hard constraint that fixes the count; absent when it comes from a wish or the default. */
  hard?: HardConstraint;
  /** Where the count comes from, for reasons ("your 2 seats", "3 tickets"). */
  source: 'seatCount' | 'ticketMix' | 'soft' | 'seatKind' | 'default';
}

/**
 * The required seat count: a hard `seatCount`, else the sum of a hard `ticketMix` (one ticket
 * per seat), else the same from the soft list, else a hard `seatKind`'s `count`, else 1. The
 * checker's `candidateShowings` defaults to 1 as well. When hard `seatCount` and `ticketMix`
 * disagree the story cannot be met; the seat and ticket stages report it.
 */
export function requiredSeats(model: PreferenceModel): SeatNeed {
  const [count] = ofKind(model.hard, 'seatCount');
  if (count) return { count: count.count, hard: count, source: 'seatCount' };
  const mix = ofKind(model.hard, 'ticketMix').find((c) => mixSize(c) > 0);
  if (mix) return { count: mixSize(mix), hard: mix, source: 'ticketMix' };
  const [softCount] = ofKind(model.soft, 'seatCount');
  if (softCount) return { count: softCount.count, source: 'soft' };
  const softMix = ofKind(model.soft, 'ticketMix').find((c) => mixSize(c) > 0);
  if (softMix) return { count: mixSize(softMix), source: 'soft' };
  const kinds = ofKind(model.hard, 'seatKind').map((c) => c.count ?? 0);
  const most = Math.max(0, ...kinds);
  if (most > 0) return { count: most, source: 'seatKind' };
  return { count: 1, source: 'default' };
}
