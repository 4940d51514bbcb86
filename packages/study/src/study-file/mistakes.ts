import { z } from 'zod';
import { Id } from './fields.ts';

/**
 * Scripted agent mistakes (packages/study/README.md, "Scripted agent mistakes"): what the agent of
 * a condition gets wrong on purpose in one task, so that trust and reliance can be studied. Each
 * kind is made on one stage:
 * - `later-showing` (time): the showing starting `minutes` (default 60) after the one the agent
 *   would choose, or the nearest later one;
 * - `next-day` (date): the first day offered after the one the agent would choose;
 * - `seats-apart` (seat): as many seats as it would choose, not side by side.
 */
export const MISTAKE_STAGES = {
  'later-showing': 'time',
  'next-day': 'date',
  'seats-apart': 'seat',
} as const;
export type MistakeKind = keyof typeof MISTAKE_STAGES;
export const MISTAKE_KINDS = Object.keys(MISTAKE_STAGES) as [MistakeKind, ...MistakeKind[]];

/** The most mistakes one condition may script (each task has three stages a mistake can be made on). */
export const MAX_MISTAKES = 60;

export const MistakeSchema = z
  .strictObject({
    /** The task (its id) in which the mistake is made; in other tasks the agent makes none. */
    task: Id,
    /** The stage the mistake is made on: `time`, `date` or `seat` (the kind's stage). */
    stage: z.enum(['date', 'time', 'seat']),
    kind: z.enum(MISTAKE_KINDS),
    /** Names the mistake in the log and the export; the kind when not given (unique per task). */
    id: Id.optional(),
    /** `later-showing` only: how much later the wrong showing starts, in minutes (default 60). */
    minutes: z.number().int().min(5).max(720).optional(),
  })
  .superRefine((mistake, ctx) => {
    const stage = MISTAKE_STAGES[mistake.kind];
    if (stage && mistake.stage !== stage) {
      ctx.addIssue({
        code: 'custom',
        path: ['stage'],
        message: `a "${mistake.kind}" mistake is made on the ${stage} stage, not the ${mistake.stage} stage`,
      });
    }
    if (mistake.minutes !== undefined && mistake.kind !== 'later-showing') {
      ctx.addIssue({ code: 'custom', path: ['minutes'], message: 'only a "later-showing" mistake has minutes' });
    }
  });
export type Mistake = z.infer<typeof MistakeSchema>;

/** The id a mistake goes by in the log and the export: its own, else its kind. */
export function mistakeId(mistake: Pick<Mistake, 'id' | 'kind'>): string {
  return mistake.id ?? mistake.kind;
}
