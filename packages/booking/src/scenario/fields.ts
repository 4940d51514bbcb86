import { z } from 'zod';
import { isClockTime, isIsoDate } from '../time.ts';

/*
 * Field schemas whose errors read like `expected a positive integer (got -5)`, so a scenario
 * author sees what the field needs rather than zod's generic wording.
 */

function preview(input: unknown): string {
  if (input === undefined) return 'missing';
  const text = JSON.stringify(input) ?? String(input);
  return `got ${text.length > 40 ? `${text.slice(0, 37)}...` : text}`;
}

/** An error option that says what was expected and what was found. */
export function expecting(what: string) {
  return { error: (issue: { input?: unknown }) => `expected ${what} (${preview(issue.input)})` };
}

/** A non-empty identifier. */
export const idField = () => z.string(expecting('a non-empty id')).min(1, expecting('a non-empty id'));

/** Non-empty text. */
export const textField = () => z.string(expecting('non-empty text')).min(1, expecting('non-empty text'));

export const positiveInt = () => {
  const e = expecting('a positive integer');
  return z.number(e).int(e).positive(e);
};

export const nonNegativeNumber = () => {
  const e = expecting('a number >= 0');
  return z.number(e).min(0, e);
};

export const isoDate = () => z.string(expecting('a YYYY-MM-DD date')).refine(isIsoDate, expecting('a YYYY-MM-DD date'));

export const clockTime = () =>
  z.string(expecting('an HH:MM time (00:00-23:59)')).refine(isClockTime, expecting('an HH:MM time (00:00-23:59)'));

export const labelList = () => z.array(textField(), expecting('a list of strings'));

/**
 * The fallback wording for issues a field schema does not word itself (objects, lists, enums,
 * unknown keys), passed to `safeParse`.
 */
export function fallbackMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected === 'array' ? 'a list' : `a ${issue.expected}`} (${preview(issue.input)})`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')} (${preview(issue.input)})`;
    default:
      return undefined;
  }
}
