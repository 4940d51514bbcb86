import { ConstraintSchema, defaultScenario, HardConstraintSchema } from '@usher/booking';
import { z } from 'zod';
import { updatePreferences } from './index.ts';
import type { PreferenceContext, PreferenceModel, Understanding } from './types.ts';

/* Test support: the default scenario as the agent sees it, and reading helpers that check every
 * model they produce against the booking package's schemas. Imported by tests only. */

const scenario = defaultScenario();

/** What the agent sees in the default scenario: today (Saturday 21 Nov 2026), titles, genres. */
export const CONTEXT: PreferenceContext = {
  today: scenario.today,
  knownTitles: scenario.movies.map((m) => m.title),
  knownGenres: [...new Set(scenario.movies.flatMap((m) => m.genres))],
};

const ModelSchema = z.strictObject({
  hard: z.array(HardConstraintSchema),
  soft: z.array(ConstraintSchema),
  questions: z.array(z.string().min(1)).min(1).optional(),
  perTicket: z.strictObject({ max: z.number().positive(), strength: z.enum(['hard', 'soft']) }).optional(),
});

/** Throws when a model would not validate as a story's hard and soft lists. */
export function assertValid(model: PreferenceModel): void {
  ModelSchema.parse(model);
}

/** Reads messages in turn from an empty model; returns the last understanding. */
export function read(...messages: string[]): Understanding {
  let model: PreferenceModel = { hard: [], soft: [] };
  let last: Understanding | undefined;
  for (const text of messages) {
    last = updatePreferences(model, text, CONTEXT);
    assertValid(last.model);
    model = last.model;
  }
  if (!last) throw new Error('read() needs a message');
  return last;
}

/** The hard list after reading the messages. */
export const hard = (...messages: string[]) => read(...messages).model.hard;
/** The soft list after reading the messages. */
export const soft = (...messages: string[]) => read(...messages).model.soft;
