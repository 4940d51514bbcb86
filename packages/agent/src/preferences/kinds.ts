import { type Constraint, type ConstraintKind, type HardConstraint, PREFERENCE_KINDS } from '@usher/booking';

export { PREFERENCE_KINDS };

/** The order in which the model lists and describes constraints: who, what, when, where, seats, money. */
export const KIND_ORDER: readonly ConstraintKind[] = [
  'seatCount',
  'ticketMix',
  'title',
  'genre',
  'rating',
  'ageRating',
  'runtime',
  'format',
  'date',
  'startTime',
  'endTime',
  'theater',
  'distance',
  'price',
  'adjacent',
  'rows',
  'rowMiddle',
  'seatKind',
  ...PREFERENCE_KINDS,
];

/** True for constraints allowed in a story's hard list. */
export function isHardConstraint(c: Constraint): c is HardConstraint {
  return !PREFERENCE_KINDS.includes(c.kind);
}

/** Sorts constraints by `KIND_ORDER`, keeping the order within a kind. */
export function byKind<C extends Constraint>(list: readonly C[]): C[] {
  return [...list].sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
}
