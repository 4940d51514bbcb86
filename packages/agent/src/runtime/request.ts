import type { UiSpec } from '@usher/protocol';
import { contextKeyOf, fingerprintOf } from '../memory/fingerprint.ts';

/*
 * The request the agent is carrying out. The agent acts on the booking only while someone asked it
 * to: a participant's message it understood, a goal, an instruction, a story. A participant's own
 * clicks are theirs and start nothing. While a request is open its work is bounded, so no wish and
 * no host can keep it acting for ever: a budget of tool calls tied to the shortest booking, and a
 * check for the page coming back to the same state again and again.
 */

/** Tool calls of the shortest booking, seats aside: a select and a `next` on each stage, a ticket or two. */
const SHORTEST_WITHOUT_SEATS = 14;
/** How many shortest bookings' worth of calls one request may take (searching, going back, retrying). */
export const CALLS_PER_SHORTEST_PATH = 10;
/**
 * How often one state of the page (the stage, its selection, the choices before it) may come back
 * within one request. Going back to look at another option passes through earlier states a few
 * times; this many means the agent is going round in circles.
 */
export const MAX_VISITS_OF_ONE_STATE = 12;

/** At most this many tool calls for one request with `seats` seats. */
export function callBudget(seats: number): number {
  return CALLS_PER_SHORTEST_PATH * (SHORTEST_WITHOUT_SEATS + Math.max(1, seats));
}

export class CurrentRequest {
  /** Someone asked for a booking that is not done yet. */
  active = false;
  /** The participant was told why the page goes back (once a request). */
  toldGoingBack = false;
  private callsAtStart = 0;
  private readonly visits = new Map<string, number>();

  /** A request starts (or a new message changes it): its bounds count from here. */
  open(callsNow: number): void {
    this.active = true;
    this.toldGoingBack = false;
    this.callsAtStart = callsNow;
    this.visits.clear();
  }

  /** Done, or given up: nothing is asked of the agent until someone asks again. */
  close(): void {
    this.active = false;
    this.visits.clear();
  }

  /** Tool calls sent for this request so far. */
  callsSince(callsNow: number): number {
    return callsNow - this.callsAtStart;
  }

  /**
   * After an action: why the agent must stop working on this request (the call budget spent, or
   * the page going round in circles), or null while it may go on.
   */
  overrun(callsNow: number, spec: UiSpec | null, seats: number): string | null {
    const calls = this.callsSince(callsNow);
    const budget = callBudget(seats);
    if (calls >= budget) {
      return `I have made ${calls} changes on the page for this request, more than a booking like this should ever take`;
    }
    if (!spec) return null;
    const state = `${fingerprintOf(spec)}@${contextKeyOf(spec.stage, spec.state.booking)}`;
    const seen = (this.visits.get(state) ?? 0) + 1;
    this.visits.set(state, seen);
    if (seen > MAX_VISITS_OF_ONE_STATE) {
      return `I keep coming back to the same ${spec.stage} step without finding a booking that fits`;
    }
    return null;
  }
}
