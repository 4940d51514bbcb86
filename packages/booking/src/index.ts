/**
 * The booking host's domain (DESIGN.md, "Booking domain"): scenarios, the stage engine behind
 * the uiSpec and toolSchema, and the story checker. Pure: no I/O, no Node imports, so the web
 * host, the headless host and the tests run the same code.
 */

export {
  type ConfirmationRecord,
  ConfirmationTracker,
  changesBooking,
  isPlainYes,
  unconfirmedSubmits,
} from './confirmation/confirmation.ts';
export {
  bookingFromSummary,
  type Selections,
  type SubmittedBooking,
  SubmittedBookingSchema,
  submitBooking,
} from './engine/booking.ts';
export { type Actor, type ApplyResult, BookingEngine, type BookingEngineOptions } from './engine/engine.ts';
export { MAX_SEATS } from './engine/stages.ts';
export { type EngineSnapshot, EngineSnapshotSchema, SnapshotError } from './engine/state.ts';
export { availableTools } from './engine/tool-rules.ts';
export { HostProtocol } from './host/host-protocol.ts';
export { firstDifference, type Replay, type ReplayFrame, type ReplayRecord, replayStudyLog } from './replay/replay.ts';
export { Catalog } from './scenario/catalog.ts';
export { defaultScenario } from './scenario/default.ts';
export { parseScenario, ScenarioError } from './scenario/parse.ts';
export * from './scenario/schema.ts';
export { inRowMiddle, type Seat, seatsOf } from './scenario/seats.ts';
export { describeStep, proposalLine, readDecision } from './steps/steps.ts';
export { type BookingCheck, candidateShowings, checkBooking } from './story/checker.ts';
export * from './story/constraints.ts';
export {
  PERIODS,
  type Period,
  type TypicalStart,
  typicalDetail,
  typicality,
  typicalStartOf,
} from './story/time-of-day.ts';
export { shortDateLabel } from './time.ts';
