/*
 * A theater wished for by what it offers: "wherever has free parking", "the cinema with the cafe",
 * "somewhere with a bar". The booking's model has no such constraint, and no stage but the theater
 * stage says what each theater offers (its items' `amenities`), so the wish is only remembered
 * from the words; once the theater stage lists amenities, {@link theatersOffering} names the
 * theaters that offer it, and the agent takes them as the theater wish.
 */

/** An amenity people ask for, and how a host may name it in a theater's `amenities`. */
interface Amenity {
  /** The participant's words for it (a regular expression's source, lower case). */
  said: string;
  /** A host's name for it matches this. */
  listed: RegExp;
}

const AMENITIES: readonly Amenity[] = [
  { said: String.raw`(?:free\s+)?(?:parking|car\s*park)`, listed: /parking|car\s*park/i },
  { said: String.raw`caf[eé]s?|coffee(?:\s+shop)?|coffee\s+bar`, listed: /caf[eé]|coffee/i },
  { said: String.raw`(?:a\s+)?bar|drinks`, listed: /\bbar\b|drinks|lounge/i },
  { said: 'restaurant|food|dining', listed: /restaurant|dining|food|kitchen/i },
  { said: String.raw`recliners?(?:\s+seat(?:s|ing))?|reclining seats`, listed: /reclin/i },
];

/** At most this many amenities are remembered from a participant's messages. */
export const MAX_AMENITIES = 4;

/** Where a message says what the place must offer: "wherever has", "a cinema with", "somewhere that's got". */
const PLACE_OFFERS = String.raw`\b(?:wherever|somewhere|anywhere|cinema|theat(?:er|re)|place|venue|one|house|arthouse|multiplex|cineplex|picture ?house|screen)\s+(?:that\s+|which\s+|that's\s+|which's\s+)?(?:has|have|with|got|has got|'s got|offers|does)\s+(?:a\s+|an\s+|the\s+|some\s+|its own\s+)?`;

/**
 * The amenities a message asks of the theater, as indexes into the table above, in the order said.
 * Only where a place is said to offer it: "a cinema with a cafe", not "coffee after the film".
 */
export function amenitiesWished(text: string): number[] {
  const lower = text.toLowerCase();
  const found: number[] = [];
  AMENITIES.forEach((amenity, index) => {
    const re = new RegExp(`${PLACE_OFFERS}(?:${amenity.said})(?![a-z])`);
    if (re.test(lower)) found.push(index);
  });
  return found.slice(0, MAX_AMENITIES);
}

/**
 * The theaters a stage lists that list amenities without every wished one: none of them can be
 * the theater wished for. Empty when the stage says nothing about amenities.
 */
export function theatersLacking(
  wished: readonly number[],
  theaters: ReadonlyArray<{ name: string; amenities?: readonly string[] | undefined }>,
): string[] {
  return theaters
    .filter(
      (t) =>
        t.amenities !== undefined &&
        !wished.every((index) => {
          const amenity = AMENITIES[index];
          return amenity !== undefined && (t.amenities ?? []).some((a) => amenity.listed.test(a));
        }),
    )
    .map((t) => t.name);
}

/**
 * The names of the theaters that list every wished amenity, or null when the stage says nothing
 * about amenities (nothing to go by), or no theater or every theater offers them (no choice made).
 */
export function theatersOffering(
  wished: readonly number[],
  theaters: ReadonlyArray<{ name: string; amenities?: readonly string[] | undefined }>,
): string[] | null {
  if (wished.length === 0 || !theaters.some((t) => t.amenities !== undefined)) return null;
  const offering = theaters.filter((t) =>
    wished.every((index) => {
      const amenity = AMENITIES[index];
      return amenity !== undefined && (t.amenities ?? []).some((a) => amenity.listed.test(a));
    }),
  );
  if (offering.length === 0 || offering.length === theaters.length) return null;
  return offering.map((t) => t.name);
}
