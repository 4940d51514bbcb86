import { checkBooking, type Scenario, type SubmittedBooking } from '@usher/booking';
import type { Task } from '@usher/study';

/** A task's outcome by its checker: what the export's success columns hold. */
export interface TaskSuccess {
  success: boolean;
  /** The first hard wish that failed (its kind), or null. */
  failedWish: string | null;
  /** Every failed hard wish, `kind: detail`, joined with `; `. */
  failedWishes: string | null;
  hardMet: number;
  hardTotal: number;
  /** Soft wishes scored 1 (fully met). */
  softMet: number;
  softTotal: number;
  /** The soft wishes' scores summed (each 0..1). */
  softScore: number;
}

/** Checks a submitted booking against the task's success constraints (@usher/booking's checker). */
export function taskSuccess(task: Pick<Task, 'success' | 'title'>, scenario: Scenario, booking: SubmittedBooking) {
  const check = checkBooking(scenario, booking, { text: task.title, ...task.success });
  const failed = check.hard.filter((h) => !h.ok);
  const result: TaskSuccess = {
    success: check.satisfied,
    failedWish: failed[0]?.constraint.kind ?? null,
    failedWishes: failed.length > 0 ? failed.map((h) => `${h.constraint.kind}: ${h.detail}`).join('; ') : null,
    hardMet: check.hard.length - failed.length,
    hardTotal: check.hard.length,
    softMet: check.soft.filter((s) => s.score >= 1).length,
    softTotal: check.soft.length,
    softScore: check.soft.reduce((sum, s) => sum + s.score, 0),
  };
  return result;
}
