import { z } from 'zod';
import { isIsoDate } from '../time.ts';

/*
 * Machine-checkable wishes of a participant (DESIGN.md, "Booking domain": a scenario may carry
 * a story with hard and soft constraints). Every constraint is a strict object tagged by `kind`,
 * so a typo in a story file is an error rather than a silently ignored wish.
 */

const date = z.string().refine(isIsoDate, 'expected a YYYY-MM-DD date');
/** Times in constraints may run past midnight ("25:00" is 1 am after the showing's day). */
const time = z.string().regex(/^([0-3]\d|4[0-7]):[0-5]\d$/, 'expected an HH:MM time');
const labels = z.array(z.string().min(1)).min(1);
const count = z.number().int().min(0);

const TICKET_TYPE_IDS = ['adult', 'child', 'senior'] as const;
/** The ticket types a scenario may sell. */
export const TicketTypeIdSchema = z.enum(TICKET_TYPE_IDS);
export type TicketTypeId = z.infer<typeof TicketTypeIdSchema>;

export const SEAT_KINDS = ['standard', 'premium', 'wheelchair'] as const;
export const SeatKindSchema = z.enum(SEAT_KINDS);
export type SeatKind = z.infer<typeof SeatKindSchema>;

export const AGE_RATINGS = ['G', 'PG', 'PG-13', 'R', 'NC-17'] as const;
export const AgeRatingSchema = z.enum(AGE_RATINGS);

export const FORMATS = ['Standard', 'IMAX', '3D'] as const;
export const FormatSchema = z.enum(FORMATS);
export type Format = z.infer<typeof FormatSchema>;

const atLeastOne =
  (...keys: string[]) =>
  (value: Record<string, unknown>): boolean =>
    keys.some((key) => value[key] !== undefined);
const oneOf = (keys: string[]) => ({ message: `give at least one of ${keys.join(', ')}` });

function bounded<K extends string, S extends z.ZodRawShape>(kind: K, shape: S) {
  const keys = Object.keys(shape);
  return z.strictObject({ kind: z.literal(kind), ...shape }).refine(atLeastOne(...keys), oneOf(keys));
}

const HARD_OPTIONS = [
  z.strictObject({ kind: z.literal('date'), dates: z.array(date).min(1) }),
  bounded('startTime', { after: time.optional(), before: time.optional() }),
  bounded('endTime', { after: time.optional(), before: time.optional() }),
  bounded('genre', { include: labels.optional(), exclude: labels.optional() }),
  bounded('title', { is: labels.optional(), not: labels.optional() }),
  z.strictObject({ kind: z.literal('rating'), min: z.number().min(0).max(10) }),
  /** The film's running time in minutes ("nothing longer than 100 minutes"), both bounds inclusive. */
  bounded('runtime', { maxMinutes: z.number().int().positive().optional(), minMinutes: count.optional() }),
  z.strictObject({ kind: z.literal('ageRating'), allowed: z.array(AgeRatingSchema).min(1) }),
  z.strictObject({ kind: z.literal('distance'), maxKm: z.number().positive() }),
  bounded('theater', { is: labels.optional(), not: labels.optional() }),
  bounded('format', { is: z.array(FormatSchema).min(1).optional(), not: z.array(FormatSchema).min(1).optional() }),
  z.strictObject({ kind: z.literal('seatCount'), count: z.number().int().positive() }),
  z.strictObject({ kind: z.literal('adjacent') }),
  bounded('rows', {
    allowed: labels.optional(),
    notFirst: count.optional(),
    notLast: count.optional(),
    /** Only the last `last` rows of the room: "in the last two rows". */
    last: count.optional(),
  }),
  /**
   * Every seat in the middle half of its row, none at or near either end ("right in the centre of
   * the row, not at either end"): `inRowMiddle` in scenario/seats.ts. A kind of its own rather than
   * a hard `centered`, which scores closeness to the room's centre, rows included.
   */
  z.strictObject({ kind: z.literal('rowMiddle') }),
  z.strictObject({
    kind: z.literal('seatKind'),
    seatKind: SeatKindSchema,
    count: z.number().int().positive().optional(),
  }),
  bounded('ticketMix', { adult: count.optional(), child: count.optional(), senior: count.optional() }),
  z.strictObject({ kind: z.literal('price'), maxTotal: z.number().min(0) }),
] as const;

/** The words of a theater's name that tell it apart: lower case, without "the". */
const nameWords = (name: string) =>
  name
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '' && word !== 'the');

/**
 * Whether a theater is the one a `theater` constraint names: its id or whole name, or a shorter
 * form of the name whose every word is a word of it ("Riverside" and "the Riverside IMAX" name
 * Riverside IMAX, "Regent" names The Regent), all case-insensitive. Participants rarely say a
 * cinema's full name, and the agent often hears it before any stage lists the theaters.
 */
export function theaterNamed(theater: { id: string; name: string }, wanted: string): boolean {
  const w = wanted.trim().toLowerCase();
  if (w === theater.id.toLowerCase() || w === theater.name.trim().toLowerCase()) return true;
  const want = nameWords(wanted);
  const have = nameWords(theater.name);
  return want.length > 0 && want.every((word) => have.includes(word));
}

/** Preferences that only make sense relative to the alternatives, so they are soft only. */
const PREFERENCE_OPTIONS = [
  z.strictObject({ kind: z.literal('cheapest') }),
  z.strictObject({ kind: z.literal('closest') }),
  z.strictObject({ kind: z.literal('earliest') }),
  z.strictObject({ kind: z.literal('latest') }),
  z.strictObject({ kind: z.literal('centered') }),
  z.strictObject({ kind: z.literal('highestRated') }),
] as const;

/** A constraint a booking meets or not: allowed in a story's `hard` and `soft` lists. */
export const HardConstraintSchema = z.discriminatedUnion('kind', [...HARD_OPTIONS]);
export type HardConstraint = z.infer<typeof HardConstraintSchema>;

/** Any constraint; the preferences (`cheapest`, `closest` …) may only be soft. */
export const ConstraintSchema = z.discriminatedUnion('kind', [...HARD_OPTIONS, ...PREFERENCE_OPTIONS]);
export type Constraint = z.infer<typeof ConstraintSchema>;
export type ConstraintKind = Constraint['kind'];

/** The soft-only kinds (`cheapest`, `closest` …): they rank options and never rule one out. */
export const PREFERENCE_KINDS: readonly ConstraintKind[] = PREFERENCE_OPTIONS.map((option) => option.shape.kind.value);
export type Preference = Extract<Constraint, { kind: (typeof PREFERENCE_OPTIONS)[number]['shape']['kind']['value'] }>;

export function isPreference(c: Constraint): c is Preference {
  return PREFERENCE_KINDS.includes(c.kind);
}

/** What the participant wants: their own words, plus what a checker can verify. */
export const StorySchema = z.strictObject({
  text: z.string().min(1),
  hard: z.array(HardConstraintSchema).default([]),
  soft: z.array(ConstraintSchema).default([]),
});
export type Story = z.infer<typeof StorySchema>;
