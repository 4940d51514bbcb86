import type { Scenario } from '@usher/booking';
import { z } from 'zod';

/** What the page keeps across a reload: the booking, the study session, and chat not yet delivered. */
export const SavedHostSchema = z.object({
  scenarioId: z.string(),
  sessionId: z.string().nullable(),
  /** `BookingEngine.toJSON()`; `BookingEngine.restore` checks it against the scenario. */
  engine: z.unknown(),
  /** `user.message` frames written while the relay was out of reach, sent on rejoining. */
  outbox: z.array(z.string()).default([]),
});
export type SavedHost = z.infer<typeof SavedHostSchema>;

const keyOf = (room: string) => `usher:host:${room}`;

/** The saved state of this room's host, when there is one for this scenario and it is readable. */
export function loadSaved(storage: Storage | null, room: string, scenario: Scenario): SavedHost | null {
  const text = storage?.getItem(keyOf(room));
  if (!text) return null;
  try {
    const saved = SavedHostSchema.parse(JSON.parse(text));
    return saved.scenarioId === scenario.id ? saved : null;
  } catch (err) {
    console.warn(`usher host: ignoring the saved state of room ${room}: ${(err as Error).message}`);
    return null;
  }
}

export function save(storage: Storage | null, room: string, saved: SavedHost): void {
  try {
    storage?.setItem(keyOf(room), JSON.stringify(saved));
  } catch (err) {
    // A full or blocked storage costs the reload its progress, not the session.
    console.warn(`usher host: could not save the state of room ${room}: ${(err as Error).message}`);
  }
}
