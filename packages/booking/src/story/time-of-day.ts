/*
 * The parts of the day people name ("in the evening", "tomorrow afternoon", "a morning show") as
 * start-time windows, with the start that is typical for each. A reader turns "evening" into a
 * start after 17:00, but nobody who says "preferably in the evening" hopes for the 23:00 showing:
 * the typical evening start is 18:00–20:30, best from 18:30 to 19:30. One definition, used by the story
 * checker to score a soft window and by the agent to rank showtimes, so both agree on "best".
 */

export type Period = 'morning' | 'afternoon' | 'evening';

/** A named part of the day: its window (as a `startTime` constraint states it) and its typical start, in minutes. */
export interface TypicalStart {
  period: Period;
  after?: string;
  before?: string;
  /** The band of typical starts, and the most typical start inside it. */
  from: number;
  to: number;
  ideal: number;
}

export const PERIODS: readonly TypicalStart[] = [
  { period: 'morning', before: '12:00', from: 9 * 60 + 30, to: 11 * 60 + 30, ideal: 10 * 60 + 30 },
  { period: 'afternoon', after: '12:00', before: '17:00', from: 13 * 60, to: 16 * 60, ideal: 14 * 60 + 30 },
  { period: 'evening', after: '17:00', from: 18 * 60, to: 20 * 60 + 30, ideal: 19 * 60 },
];

/** The named part of the day a start window is exactly, if any ("after 17:00" is the evening). */
export function typicalStartOf(window: {
  after?: string | undefined;
  before?: string | undefined;
}): TypicalStart | undefined {
  return PERIODS.find((p) => p.after === window.after && p.before === window.before);
}

/** Starts this close to the ideal are all the most typical (19:00 ± 30 min for the evening). */
const PLATEAU = 30;
/** Beyond the band, a start stops counting as typical at all this many minutes further out. */
const FADE = 180;

/**
 * How typical a start (minutes from midnight) is for the part of the day: 1 within {@link PLATEAU}
 * minutes of the ideal start, 0.75 at the edges of the band (linear between), then down to 0 at
 * {@link FADE} minutes beyond. The plateau lets a search stop at a showing it knows cannot be beaten.
 */
export function typicality(start: number, t: TypicalStart): number {
  const d = Math.abs(start - t.ideal);
  const edge = start < t.ideal ? t.ideal - t.from : t.to - t.ideal;
  const score =
    d <= PLATEAU
      ? 1
      : d <= edge
        ? 1 - (0.25 * (d - PLATEAU)) / (edge - PLATEAU)
        : 0.75 * Math.max(0, 1 - (d - edge) / FADE);
  return Math.round(score * 100) / 100;
}

const clock = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/** The typical start as the checker states it: `a typical evening start is 18:00–20:30, best about 19:00 (0.83)`. */
export function typicalDetail(t: TypicalStart, score: number): string {
  return `a typical ${t.period} start is ${clock(t.from)}–${clock(t.to)}, best about ${clock(t.ideal)} (${score})`;
}
