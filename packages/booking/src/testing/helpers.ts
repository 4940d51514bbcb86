import type { Item, Stage, UiSpec } from '@usher/protocol';
import { BookingEngine } from '../engine/engine.ts';
import { defaultScenario } from '../scenario/default.ts';
import type { Scenario } from '../scenario/schema.ts';

/*
 * Test helpers (not exported by the package): a fixed clock and a way to drive an engine to any
 * stage with choices that exist in the default scenario.
 */

/** A clock that ticks one second per call from 2026-11-21T09:00:00Z. */
export function fixedClock(): () => Date {
  let t = Date.UTC(2026, 10, 21, 9, 0, 0);
  return () => {
    t += 1000;
    return new Date(t);
  };
}

export function newEngine(scenario: Scenario = defaultScenario()): BookingEngine {
  return new BookingEngine(scenario, { now: fixedClock() });
}

export function spec(engine: BookingEngine): UiSpec {
  const { uiSpec } = engine.view();
  if (uiSpec === null) throw new Error('no uiSpec is active');
  return uiSpec;
}

export function toolNames(engine: BookingEngine): string[] {
  return engine.view().toolSchema.map((t) => t.name);
}

/** Two free seats side by side in one row, no aisle between (from the seat stage's items). */
export function twoAdjacentFree(items: readonly Item[], aisleAfter: readonly number[]): [string, string] {
  for (const a of items) {
    const b = items.find((i) => i.row === a.row && i.number === (a.number as number) + 1);
    if (b && !a.isDisabled && !b.isDisabled && !aisleAfter.includes(a.number as number)) return [a.id, b.id];
  }
  throw new Error('no two adjacent free seats');
}

/** The default route: Orbital Drift at Riverside IMAX today at 13:00 (IMAX), two adults. */
export const ROUTE = {
  movie: 'm-orbital-drift',
  theater: 't-riverside',
  date: '2026-11-21',
  showing: 'sh-riverside-1121-1300',
} as const;

/** Drives `engine` from the movie stage to `stage` through apply() only, as the participant. */
export function driveTo(engine: BookingEngine, stage: Stage): BookingEngine {
  const go = (tool: string, params: Record<string, unknown> = {}) => engine.apply(tool, params, 'participant');
  const steps: [Stage, () => void][] = [
    ['movie', () => go('select', { itemId: ROUTE.movie })],
    ['theater', () => go('select', { itemId: ROUTE.theater })],
    ['date', () => go('select', { itemId: ROUTE.date })],
    ['time', () => go('select', { itemId: ROUTE.showing })],
    [
      'seat',
      () => {
        const s = spec(engine);
        for (const id of twoAdjacentFree(s.items, s.meta?.aisleAfter as number[])) go('select', { itemId: id });
      },
    ],
    ['ticket', () => go('setQuantity', { typeId: 'adult', quantity: 2 })],
  ];
  for (const [at, choose] of steps) {
    if (at === stage) return engine;
    choose();
    go('next');
  }
  return engine;
}
