/**
 * The stage solver (README.md): what to choose on the stage on screen under the participant's
 * hard and soft constraints, or why nothing there can meet them.
 */
export { decideStage } from './decide.ts';
export { MAX_SEAT_SETS } from './decide-seats.ts';
export { JUDGED_AT } from './judge.ts';
export { requiredSeats, type SeatNeed } from './model.ts';
export { WEIGHTS } from './rank.ts';
export type {
  FailingConstraint,
  PreferenceModel,
  RankedOption,
  RankedSeats,
  StageDecision,
} from './types.ts';
