import {
  type ChatEntry,
  ChatEntrySchema,
  type Modification,
  ModificationSchema,
  type Stage,
  StageSchema,
} from '@usher/protocol';
import { z } from 'zod';
import {
  emptySelections,
  type Selections,
  SelectionsSchema,
  type SubmittedBooking,
  SubmittedBookingSchema,
} from './booking.ts';

/** Everything the engine remembers; the views are computed from it. */
export interface EngineState {
  /** The current stage; `null` once the booking is submitted (no spec is active). */
  stage: Stage | null;
  selections: Selections;
  /** The modification of the current stage; cleared whenever the stage changes. */
  modification: Modification;
  messages: ChatEntry[];
  /** How many chat entries were numbered since the last reset (ids are `msg-<n>`). */
  messageCounter: number;
  /** How many bookings this engine has submitted, across resets. */
  bookingCounter: number;
  submitted: SubmittedBooking | null;
  /**
   * How many tools changed the page since the last reset (every applied tool but the chat's):
   * `uiSpec.meta.revision`, what an agent's call names in `expect` to say what it was planned on.
   */
  revision: number;
}

export function initialState(bookingCounter = 0): EngineState {
  return {
    stage: 'movie',
    selections: emptySelections(),
    modification: {},
    messages: [],
    messageCounter: 0,
    bookingCounter,
    submitted: null,
    revision: 0,
  };
}

/** The engine's state as JSON, for restoring a page after a reload. */
export const EngineSnapshotSchema = z.object({
  version: z.literal(1),
  scenarioId: z.string(),
  stage: StageSchema.nullable(),
  selections: SelectionsSchema,
  modification: ModificationSchema,
  messages: z.array(ChatEntrySchema),
  messageCounter: z.number().int().min(0),
  bookingCounter: z.number().int().min(0),
  submitted: SubmittedBookingSchema.nullable(),
  // Snapshots saved before pages showed a revision start from 0.
  revision: z.number().int().min(0).default(0),
});
export type EngineSnapshot = z.infer<typeof EngineSnapshotSchema>;

/** A snapshot that cannot be restored against the given scenario. */
export class SnapshotError extends Error {
  override readonly name = 'SnapshotError';
}
