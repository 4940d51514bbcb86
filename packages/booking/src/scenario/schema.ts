import { z } from 'zod';
import { AgeRatingSchema, FormatSchema, StorySchema, TicketTypeIdSchema } from '../story/constraints.ts';
import {
  clockTime,
  expecting,
  idField,
  isoDate,
  labelList,
  nonNegativeNumber,
  positiveInt,
  textField,
} from './fields.ts';

/*
 * The scenario file format (documented field by field in SCENARIOS.md). Objects are strict so
 * a misspelt optional field is reported instead of silently ignored; `internal` is the one
 * free-form place, for backend-only data the participant and the agent must never see.
 */

const internal = z.record(z.string(), z.unknown()).optional();

export const MovieSchema = z.strictObject({
  id: idField(),
  title: textField(),
  genres: z.array(textField(), expecting('a non-empty list of genres')).min(1, expecting('a non-empty list of genres')),
  durationMinutes: positiveInt(),
  rating: z
    .number(expecting('a score from 0 to 10'))
    .min(0, expecting('a score from 0 to 10'))
    .max(10, expecting('a score from 0 to 10')),
  ageRating: AgeRatingSchema,
  synopsis: z.string(expecting('text')),
  internal,
});
export type Movie = z.infer<typeof MovieSchema>;

export const TheaterSchema = z.strictObject({
  id: idField(),
  name: textField(),
  distanceKm: nonNegativeNumber(),
  amenities: labelList(),
  seatMapId: idField(),
  internal,
});
export type Theater = z.infer<typeof TheaterSchema>;

const rowLabel = z
  .string(expecting('a row label of 1-2 capital letters'))
  .regex(/^[A-Z]{1,2}$/, expecting('a row label of 1-2 capital letters'));

export const SeatMapSchema = z.strictObject({
  id: idField(),
  /** Row labels, nearest the screen first. */
  rows: z
    .array(rowLabel, expecting('a non-empty list of row labels'))
    .min(1, expecting('a non-empty list of row labels')),
  seatsPerRow: positiveInt(),
  /** An aisle runs after each of these seat numbers. */
  aisleAfter: z.array(positiveInt(), expecting('a list of seat numbers')).default([]),
  /** Seats that are not standard; wheelchair wins over premium. */
  kinds: z
    .strictObject({
      premium: z.array(rowLabel, expecting('a list of row labels')).default([]),
      wheelchair: z.array(textField(), expecting('a list of seat ids')).default([]),
    })
    .default({ premium: [], wheelchair: [] }),
});
export type SeatMap = z.infer<typeof SeatMapSchema>;

export const ShowingSchema = z.strictObject({
  id: idField(),
  movieId: idField(),
  theaterId: idField(),
  date: isoDate(),
  time: clockTime(),
  format: FormatSchema,
  takenSeats: z.array(textField(), expecting('a list of seat ids')).default([]),
  internal,
});
export type Showing = z.infer<typeof ShowingSchema>;

export const TicketTypeSchema = z.strictObject({
  id: TicketTypeIdSchema,
  label: textField(),
  price: nonNegativeNumber(),
});
export type TicketType = z.infer<typeof TicketTypeSchema>;

const surcharge = nonNegativeNumber().default(0);

export const ScenarioSchema = z.strictObject({
  id: idField(),
  name: textField(),
  today: isoDate(),
  currency: z.string(expecting('a 3-letter currency code')).regex(/^[A-Z]{3}$/, expecting('a 3-letter currency code')),
  movies: z.array(MovieSchema, expecting('a list of movies')).min(1, expecting('at least one movie')),
  theaters: z.array(TheaterSchema, expecting('a list of theaters')).min(1, expecting('at least one theater')),
  seatMaps: z.array(SeatMapSchema, expecting('a list of seat maps')).min(1, expecting('at least one seat map')),
  showings: z.array(ShowingSchema, expecting('a list of showings')).min(1, expecting('at least one showing')),
  ticketTypes: z
    .array(TicketTypeSchema, expecting('a list of ticket types'))
    .min(1, expecting('at least one ticket type')),
  /** Added to every ticket's price for a showing in that format. */
  formatSurcharges: z
    .strictObject({ Standard: surcharge, IMAX: surcharge, '3D': surcharge })
    .default({ Standard: 0, IMAX: 0, '3D': 0 }),
  /** Added once per seat of that kind. */
  seatKindSurcharges: z
    .strictObject({ standard: surcharge, premium: surcharge, wheelchair: surcharge })
    .default({ standard: 0, premium: 0, wheelchair: 0 }),
  story: StorySchema.optional(),
});
export type Scenario = z.infer<typeof ScenarioSchema>;
/** A scenario as written in a file, before defaults are filled in. */
export type ScenarioInput = z.input<typeof ScenarioSchema>;
