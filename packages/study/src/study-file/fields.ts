import { z } from 'zod';

/** Ids of a study, its tasks, conditions and questionnaire items: they go into URLs, file names and export columns. */
export const Id = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9_-]{0,63}$/,
    'expected 1–64 lowercase letters, digits, "-" or "_", starting with a letter or digit',
  );

/** Text a person wrote: trimmed, not empty, at most `max` characters. */
export const Text = (max: number) => z.string().trim().min(1, 'expected some text').max(max);
