import {
  bookingFromSummary,
  Catalog,
  checkBooking,
  type HardConstraint,
  type Scenario,
  type Story,
} from '@usher/booking';
import type { BookingSummary } from '@usher/protocol';

/*
 * The suite's simulated participant. Asked before the agent submits, it looks at the booking on
 * the confirm stage as a person would, against its own story: "yes" when the booking keeps every
 * hard wish, otherwise "no" with a plain correction naming what is wrong, in words the agent must
 * read (never the constraint objects).
 */

export interface SimulatedParticipant {
  /** The agent's confirmation question: true books; false leaves the correction in `lastCorrection`. */
  confirm(summary: string, booking?: BookingSummary): Promise<boolean>;
  /** Every correction said, in order. */
  corrections: string[];
  lastCorrection(): string | undefined;
}

export function simulatedParticipant(world: Scenario, story: Story): SimulatedParticipant {
  const catalog = new Catalog(world);
  const corrections: string[] = [];
  return {
    corrections,
    lastCorrection: () => corrections.at(-1),
    async confirm(_summary, pending) {
      const booking = pending ? bookingFromSummary(catalog, pending) : null;
      // A booking the participant cannot read is no booking to say yes to.
      const broken = booking
        ? checkBooking(world, booking, story)
            .hard.filter((h) => !h.ok)
            .map((h) => h.constraint)
        : story.hard;
      if (booking && broken.length === 0) return true;
      corrections.push(correctionFor(broken));
      return false;
    },
  };
}

/** "No, …": what the broken wishes were, in the words a participant would use. */
export function correctionFor(broken: readonly HardConstraint[]): string {
  const parts = broken.map(phrase).filter((p) => p !== '');
  return parts.length === 0 ? 'No, that is not what I asked for.' : `No, ${parts.join(', ')}.`;
}

function phrase(c: HardConstraint): string {
  switch (c.kind) {
    case 'title':
      return c.is ? `it has to be ${c.is.join(' or ')}` : `not ${c.not?.join(' or ')}`;
    case 'genre':
      return [c.include && `it has to be a ${c.include.join(' or ')}`, c.exclude && `no ${c.exclude.join(' or ')}`]
        .filter(Boolean)
        .join(', ');
    case 'date':
      return `it has to be on ${c.dates.join(' or ')}`;
    case 'startTime':
      return c.after && c.before
        ? `it has to start between ${c.after} and ${c.before}`
        : c.after
          ? `it has to start after ${c.after}`
          : `it has to start before ${c.before}`;
    case 'endTime':
      return c.before ? `it has to be done by ${c.before}` : `it has to end after ${c.after}`;
    case 'rating':
      return `it has to be rated at least ${c.min}`;
    case 'ageRating':
      return `nothing above ${c.allowed.at(-1)}`;
    case 'runtime':
      return c.maxMinutes !== undefined
        ? `nothing longer than ${c.maxMinutes} minutes`
        : `at least ${c.minMinutes} minutes long`;
    case 'format':
      return c.is ? `it has to be in ${c.is.join(' or ')}` : `not in ${c.not?.join(' or ')}`;
    case 'theater':
      return c.is ? `it has to be at ${c.is.join(' or ')}` : `not at ${c.not?.join(' or ')}`;
    case 'distance':
      return `within ${c.maxKm} km`;
    case 'seatCount':
      return `we need ${c.count} tickets`;
    case 'ticketMix': {
      // As a person says it: only who is coming ("2 adults and 1 child"), never "0 seniors".
      const who = (
        [
          [c.adult, 'adult', 'adults'],
          [c.child, 'child', 'children'],
          [c.senior, 'senior', 'seniors'],
        ] as const
      )
        .filter(([n]) => (n ?? 0) > 0)
        .map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
      return who.length === 0 ? '' : `we are ${who.join(' and ')}`;
    }
    case 'adjacent':
      return 'we need to sit together';
    case 'rows':
      return c.allowed
        ? `it has to be row ${c.allowed.join(' or ')}`
        : c.notFirst
          ? `not the first ${c.notFirst} rows`
          : c.last
            ? `it has to be one of the last ${c.last} rows`
            : `not the last ${c.notLast} rows`;
    case 'rowMiddle':
      return 'the seats must be in the middle of the row, not at the ends';
    case 'seatKind':
      return c.seatKind === 'wheelchair' ? `we need ${c.count ?? 1} wheelchair space` : `${c.seatKind} seats`;
    case 'price':
      return `under $${c.maxTotal} total`;
  }
}

/** A participant who says yes to every booking, leaving the judging to the end (a host whose records the simulated one cannot read). */
export function agreeableParticipant(): SimulatedParticipant {
  return { corrections: [], lastCorrection: () => undefined, confirm: async () => true };
}
