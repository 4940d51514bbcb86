import type { HardConstraint } from '@usher/booking';
import type { Stage } from '@usher/protocol';

/** What the participant wants: the preferences stage's output, the solver's input. */
export type { PreferenceModel } from '../../preferences/types.ts';

/** One option of a choice stage, for a `select` whose reason is `reason`. */
export interface RankedOption {
  itemId: string;
  /** What the participant sees on the item (its `value`). */
  label: string;
  /** Higher is better; comparable only within one decision. */
  score: number;
  /** Concrete enough to be a tool call's reason ("19:30 · IMAX: starts 19:30 (at or after your 18:00) …"). */
  reason: string;
  /** The reason without the label it starts with ("starts 19:30 (at or after your 18:00) …"). */
  why: string;
}

/** One set of seats of the required size. */
export interface RankedSeats {
  /** The whole set, including seats the participant already selected, in seat order. */
  seatIds: string[];
  /** The seats of the set not selected yet: `select` each once (select toggles a seat). */
  toSelect: string[];
  score: number;
  reason: string;
}

/** A hard constraint that ruled out what the stage offers, with a line a participant understands. */
export interface FailingConstraint {
  constraint: HardConstraint;
  detail: string;
}

/** The solver's answer for the stage on screen (spec §6: the planner turns it into one action). */
export type StageDecision =
  | { stage: 'movie' | 'theater' | 'date' | 'time'; kind: 'options'; options: RankedOption[] }
  | { stage: 'seat'; kind: 'seats'; options: RankedSeats[] }
  | { stage: 'ticket'; kind: 'tickets'; quantities: Record<string, number>; reason: string }
  | { stage: 'confirm'; kind: 'confirm'; reason: string }
  | {
      stage: Stage;
      kind: 'dead-end';
      failing: FailingConstraint[];
      summary: string;
      /**
       * Set when the solver knows which stage's choice must change and it is not simply the stage
       * before: `seat` on the seat stage when the seats already selected break a constraint (going
       * back would discard them), `seat` on the ticket and confirm stages when the seat count or
       * the seat surcharges are what fails, and the stage of an earlier choice that breaks a wish
       * said since (a title, a day, a showtime).
       */
      backTo?: Stage;
    };

/** The stages whose decision is a ranked list of items to `select`. */
export type OptionStage = 'movie' | 'theater' | 'date' | 'time';

/** A judgement of one constraint on one option, phrased for a participant. */
export interface Verdict {
  ok: boolean;
  detail: string;
}
