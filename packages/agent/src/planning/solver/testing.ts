import { BookingEngine, type Constraint, defaultScenario, type HardConstraint } from '@usher/booking';
import type { UiSpec } from '@usher/protocol';
import type { PreferenceModel } from './types.ts';

/*
 * Test helpers (used by the colocated tests only): the default scenario's engine driven to a
 * stage by the choices a participant would make.
 */

export const scenario = defaultScenario();

/** An engine after selecting each id in turn, with `next` after every stage before the seats. */
export function engineAt(choices: readonly string[], seats: readonly string[] = []): BookingEngine {
  const engine = new BookingEngine(scenario);
  for (const itemId of choices) {
    engine.apply('select', { itemId }, 'participant');
    engine.apply('next', {}, 'participant');
  }
  for (const itemId of seats) engine.apply('select', { itemId }, 'participant');
  return engine;
}

export function specOf(engine: BookingEngine): UiSpec {
  const { uiSpec } = engine.view();
  if (!uiSpec) throw new Error('no uiSpec is active');
  return uiSpec;
}

export const model = (hard: HardConstraint[], soft: Constraint[] = []): PreferenceModel => ({ hard, soft });

// Orbital Drift (148 min, IMAX and Standard only) at Riverside IMAX, Sun 22 Nov:
// 13:00 IMAX, 14:10 Standard, 16:30 IMAX, 19:30 IMAX, 20:50 Standard, 22:40 IMAX (ends 01:08).
export const ORBITAL_SUNDAY = ['m-orbital-drift', 't-riverside', '2026-11-22'];
export const ORBITAL_1930 = 'sh-riverside-1122-1930';
