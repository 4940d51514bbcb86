import type { Constraint, ConstraintKind, HardConstraint } from '@usher/booking';

/** What the agent knows besides the message: the study's day and what the movie stage shows. */
export interface PreferenceContext {
  /** `YYYY-MM-DD`: the date stage item marked `isToday`, or the scenario's `today`. */
  today: string;
  /** Titles the agent can see (movie stage items), so a named movie is recognized. */
  knownTitles?: string[];
  /** Genres the agent can see (movie items' `genres`), so their spelling is reused. */
  knownGenres?: string[];
  /** Theaters the agent can see (theater stage items' names), so a named one is recognized. */
  knownTheaters?: string[];
  /** What the movie stage showed of each film, so a named film that a later wish rules out gives way to it. */
  knownFilms?: KnownFilm[];
  /**
   * The tickets of the party known before this message; `updatePreferences` sets it from the model,
   * so a party said again keeps its children and seniors ("so that's me, her and the twins").
   */
  party?: { adult?: number; child?: number; senior?: number };
  /** How many the party known before this message is, from its tickets or its seat count. */
  partySize?: number;
  /**
   * The film and the theater chosen on the page, by whoever chose them: what "seen that one" or
   * "somewhere closer" turns down when the participant named none.
   */
  onPage?: { film?: string; theater?: string };
}

/** A film as the movie stage showed it. */
export interface KnownFilm {
  title: string;
  genres: string[];
  ageRating?: string;
  rating?: number;
}

/** The participant's wishes: hard ones a booking must meet, soft ones it should. */
export interface PreferenceModel {
  hard: HardConstraint[];
  soft: Constraint[];
  /**
   * Short questions about what the reader could not settle and could change the booking (how many
   * are coming; words it could not read that hold a number). The agent asks before booking.
   */
  questions?: string[];
  /**
   * A price limit said per ticket ("under 20 a ticket"). The booking's model limits the total, so
   * the `price` constraint is this times the seat count: kept until the count is known, and
   * applied again when the count changes ("plus my sister").
   */
  perTicket?: { max: number; strength: Strength };
}

/** The result of reading one message. */
export interface Understanding {
  model: PreferenceModel;
  /** Kinds whose constraints differ from before, in a fixed order. */
  changed: ConstraintKind[];
  /** One sentence for the participant saying what is now understood. */
  summary: string;
  /** True when nothing in the message was recognized, so the agent can ask instead. */
  unparsed: boolean;
  /** Words the reader changed before reading ("tmrw" → "tomorrow", "orbitel drift" → "Orbital Drift"). */
  fixes: Fix[];
  /** The words of the message no rule used, in order (filler words left out). */
  unread: string[];
}

export interface Fix {
  from: string;
  to: string;
}

export type Strength = 'hard' | 'soft';

/**
 * How a `set` combines with what the model already has:
 * - `replace`: the kind is stated afresh (a date, a named time window, a seat count).
 * - `refine`: only the stated field changes (one time bound, "after 7").
 * - `add`: the stated amounts join the old ones ("also Sunday", "plus a child").
 * - `widen`: a fallback; the old wish and the new one are both acceptable, and the old one stays as
 *   the preference ("afternoon works too", "otherwise regular is fine").
 * - `retype`: tickets of the party already known change type ("oh he's 67": an adult becomes a
 *   senior); with no party known, as `replace`.
 * - `speaker`: the speaker's own ticket in the party already known ("I'm 70"): one adult becomes the
 *   type stated, the party's size stays; with no party known, as `replace`.
 * - `person`: the age of one person already coming said again ("my son is actually 13"): one ticket
 *   of another type (a child's for a grown-up under the senior age, else an adult's) becomes the type
 *   stated, the party's size stays; with no party known, as `replace`.
 * - `less`: people of the party known no longer come ("one of the kids can't make it"): their
 *   tickets are taken off; with no party known, or none left, nothing changes.
 * - `later`, `earlier`: a start time later (earlier) than the one held ("no, the later one" after
 *   "at 6"); with no such bound held, the latest (earliest) showing, softly.
 */
export type Mode =
  | 'replace'
  | 'refine'
  | 'add'
  | 'widen'
  | 'retype'
  | 'speaker'
  | 'person'
  | 'less'
  | 'later'
  | 'earlier';

/** What a rule read from one phrase, before the clause around it decides hard or soft. */
export type Draft =
  | {
      set: Constraint;
      /** A vague wish ("highly rated"): soft unless the participant insists ("must"). */
      vague?: boolean;
      mode?: Mode;
      /** Lower ranks apply first within a message: named periods before clock times. */
      rank?: number;
      /** A price per ticket, multiplied by the seat count once the message is merged. */
      perTicket?: boolean;
      /**
       * Not said but implied (a child in the party implies a film for children): applied, as a
       * preference, only when the model has nothing said of that kind and no film is named.
       */
      implied?: boolean;
    }
  /** `rank` as for a set: a withdrawal with a condition applies before the condition's wish. */
  | { remove: ConstraintKind; value?: string; rank?: number };

/** A phrase a rule recognized: its span in the message and what it means. */
export interface Hit {
  start: number;
  end: number;
  drafts: Draft[];
}

/** A change to the model, placed in the message and with its strength decided. */
export type Op =
  | {
      type: 'set';
      constraint: Constraint;
      strength: Strength;
      mode: Mode;
      perTicket: boolean;
      implied?: boolean;
      /** An implied wish the message makes firm ("which films would be suitable for him"). */
      firm?: boolean;
      at: number;
      rank: number;
    }
  | { type: 'remove'; kind: ConstraintKind; value?: string; at: number; rank: number };

/** What a rule reads: the message with earlier rules' phrases blanked, and the untouched one. */
export interface Scan {
  /** The message with phrases that earlier rules recognized replaced by spaces. */
  text: string;
  /** The normalized message, for looking at a phrase's clause (negations, hedges). */
  original: string;
  context: PreferenceContext;
}

/** One extraction rule: finds its phrases and says what each means. */
export type Rule = (scan: Scan) => Hit[];
