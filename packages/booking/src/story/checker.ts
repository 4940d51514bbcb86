import type { SubmittedBooking } from '../engine/booking.ts';
import { Catalog } from '../scenario/catalog.ts';
import type { Scenario, Showing } from '../scenario/schema.ts';
import { checkBookingConstraint } from './booking-rules.ts';
import type { Constraint, HardConstraint, Story } from './constraints.ts';
import { type ShowingFacts, showingFacts } from './facts.ts';
import { scorePreference } from './preferences.ts';
import { checkShowingConstraint, seatsFeasible, type Verdict } from './showing-rules.ts';
import { typicalDetail, typicality, typicalStartOf } from './time-of-day.ts';

/** How a submitted booking fares against a story. */
export interface BookingCheck {
  /** Every hard constraint holds. */
  satisfied: boolean;
  hard: Array<{ constraint: HardConstraint; ok: boolean; detail: string }>;
  /**
   * Soft constraints scored 0..1; a hard-style constraint used softly scores 1 or 0, except a start
   * window that is a named part of the day, which scores how typical the start is (time-of-day.ts).
   */
  soft: Array<{ constraint: Constraint; score: number; detail: string }>;
}

function verdict(c: HardConstraint, booking: SubmittedBooking, facts: ShowingFacts): Verdict {
  const v = checkShowingConstraint(c, facts) ?? checkBookingConstraint(c, booking, facts.seatMap);
  // Every hard kind is handled by one of the two; this only guards a kind added without a rule.
  return v ?? { ok: false, detail: `no rule checks "${c.kind}"` };
}

function seatCountOf(story: Story): number {
  const c = story.hard.find((h) => h.kind === 'seatCount');
  return c?.kind === 'seatCount' ? c.count : 1;
}

/**
 * The showings that can satisfy a story's hard constraints as far as the showing decides:
 * day, times, movie, theater, format, and enough free seats (of the wanted kind). Seat-level
 * constraints (adjacency, rows) and ticket mix or price are left to the booking check.
 */
export function candidateShowings(scenario: Scenario, story: Story): Showing[] {
  return candidateFacts(new Catalog(scenario), story).map((f) => f.showing);
}

function candidateFacts(catalog: Catalog, story: Story): ShowingFacts[] {
  const seats = seatCountOf(story);
  return catalog.orderedShowings.flatMap((showing) => {
    const facts = showingFacts(catalog, showing);
    if (!facts || facts.freeSeats.length < seats) return [];
    const ok = story.hard.every(
      (c) => (checkShowingConstraint(c, facts)?.ok ?? true) && seatsFeasible(c, facts, seats),
    );
    return ok ? [facts] : [];
  });
}

/**
 * Checks a submitted booking against a story: each hard constraint holds or not; each soft one
 * gets a score, the preferences relative to the candidate showings. Throws when the booking's
 * showing is not in the scenario (the booking belongs to another scenario).
 */
export function checkBooking(scenario: Scenario, booking: SubmittedBooking, story: Story): BookingCheck {
  const catalog = new Catalog(scenario);
  const showing = catalog.showing(booking.showingId);
  const booked = showing && showingFacts(catalog, showing);
  if (!booked) throw new Error(`showing "${booking.showingId}" is not in scenario "${scenario.id}"`);

  const hard = story.hard.map((constraint) => ({ constraint, ...verdict(constraint, booking, booked) }));
  let options: ShowingFacts[] | undefined;
  const soft = story.soft.map((constraint) => {
    switch (constraint.kind) {
      case 'cheapest':
      case 'closest':
      case 'earliest':
      case 'latest':
      case 'centered':
      case 'highestRated': {
        options ??= withBooked(candidateFacts(catalog, story), booked);
        return { constraint, ...scorePreference(constraint, booking, booked, options, catalog) };
      }
      default: {
        const v = verdict(constraint, booking, booked);
        // A named part of the day ("preferably in the evening") prefers its typical start.
        const typical = constraint.kind === 'startTime' ? typicalStartOf(constraint) : undefined;
        if (typical && v.ok) {
          const score = typicality(booked.startMinutes, typical);
          return { constraint, score, detail: `${v.detail}; ${typicalDetail(typical, score)}` };
        }
        return { constraint, score: v.ok ? 1 : 0, detail: v.detail };
      }
    }
  });
  return { satisfied: hard.every((h) => h.ok), hard, soft };
}

/** The candidates plus the booked showing, so a booking that broke a hard rule still scores in range. */
function withBooked(candidates: ShowingFacts[], booked: ShowingFacts): ShowingFacts[] {
  return candidates.some((f) => f.showing.id === booked.showing.id) ? candidates : [...candidates, booked];
}
