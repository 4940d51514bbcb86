import type { UiSpec } from '@usher/protocol';
import type { PerceivedContext } from '../perception/perceive.ts';
import { studyDayOf } from '../perception/study-day.ts';
import type { LlmConfig } from '../planning/llm/config.ts';
import { readWithLlm } from '../planning/llm/reader.ts';
import { orList } from '../planning/solver/fields.ts';
import type { PreferenceModel } from '../planning/solver/index.ts';
import { amenitiesWished, MAX_AMENITIES, theatersLacking, theatersOffering } from '../preferences/amenities.ts';
import { describeModel, type PreferenceContext, type Understanding, updatePreferences } from '../preferences/index.ts';
import { byKind, isHardConstraint } from '../preferences/kinds.ts';
import {
  MAX_PLACES,
  matchTheaters,
  placesAnnounced,
  placesInsisted,
  placesMaybeFilms,
  placesNamed,
  theaterFromPlaces,
} from '../preferences/names-seen.ts';
import { tieBreaksSaid } from '../preferences/tie-breaks.ts';
import type { KnownFilm } from '../preferences/types.ts';
import { ClockReadings } from './clock-readings.ts';

/** At most this many titles and genres are remembered from a movie stage (a host's list may be long). */
const MAX_CATALOG = 500;

/** A participant's words as read: what was understood, and against what (the day, the names seen). */
export interface Heard {
  text: string;
  understanding: Understanding;
  reading: PreferenceContext;
}

/**
 * What the agent understands of the participant: the wishes read from their words, against the
 * study's day and the films, genres and theaters the host has shown. It reads and keeps the
 * wishes; the agent decides what to do when they change.
 */
export class Listening {
  /** The participant's wishes as understood so far. */
  model: PreferenceModel;
  /** The study's day as the host last gave it ({@link today}). */
  private studyToday: string | null = null;
  /** The study's day came from the host's own word for it (`meta.today`, a day marked today), not a guess. */
  private studySure = false;
  /** What the participant said before the study's day was known (read again once it is). */
  private readonly clockReadings = new ClockReadings();
  /**
   * The titles and genres of the last movie stage seen, so a film named in lower case on a later
   * stage ("actually, we'd rather see night ledger" on the confirm stage) is still recognized.
   * Bounded by the stage's own list; replaced whenever the movie stage is seen again.
   */
  /** Places the participant named in lower case that no rule read ({@link placesNamed}), newest first. */
  private places: string[] = [];
  /** Of those, the ones the words say are a place ({@link placesAnnounced}): a look ahead starts for them. */
  private announced: string[] = [];
  /** The announced places said the way a cinema is named ({@link placesInsisted}), newest first. */
  private insisted: string[] = [];
  /** Of those, the ones named only by opening a clause before the day ({@link placesMaybeFilms}). */
  private maybeFilms: string[] = [];
  /** What the participant asked a theater to offer ({@link amenitiesWished}), newest first. */
  private amenities: number[] = [];
  /** The theater names of the last theater stage seen (bounded), so a later change of theater is read. */
  private theatersSeen: string[] = [];
  private catalog: { titles: string[]; genres: string[]; films: KnownFilm[] } = { titles: [], genres: [], films: [] };

  constructor(
    model: PreferenceModel,
    private readonly options: {
      /** The machine's clock, read only while no host has said which day the study is on. */
      clock: () => Date;
      log: (line: string) => void;
      /** The LLM reader's service, for goals and instructions ({@link readFirst}). */
      reader?: LlmConfig | undefined;
    },
  ) {
    this.model = model;
  }

  /** The wishes in one sentence, as the participant is told them. */
  summary(): string {
    return describeModel(this.model, this.today());
  }

  /** Places named that no theater stage has matched yet, while no theater is wished for. */
  get placesToMatch(): readonly string[] {
    const named = [...this.model.hard, ...this.model.soft].some((c) => c.kind === 'theater' && (c.is?.length ?? 0) > 0);
    return named ? [] : this.announced;
  }

  /** Places said as places ("at northgate") that no theater stage has named yet, for the words of a decline. */
  get placesUnmatched(): readonly string[] {
    return this.placesToMatch.length > 0 ? this.insisted : [];
  }

  /** Whether the first of {@link placesUnmatched} only opened a clause before the day, as a film's name may ("barbie saturday"). */
  get placeMayBeFilm(): boolean {
    const first = this.placesUnmatched[0];
    return first !== undefined && this.maybeFilms.includes(first);
  }

  /** Reads words by the rules, against what the agent sees now. */
  read(text: string, context: PerceivedContext): Heard {
    const reading = this.readingContext(context);
    return { text, understanding: updatePreferences(this.model, text, reading), reading };
  }

  /**
   * Reads a goal or an instruction with the LLM reader when one is configured (the rules when it
   * is not, or when its answer cannot be used). Messages mid-flow are read by the rules at once.
   */
  async readFirst(text: string, context: PerceivedContext, signal: AbortSignal): Promise<Heard> {
    const config = this.options.reader;
    if (!config) return this.read(text, context);
    const reading = this.readingContext(context);
    const understanding = await readWithLlm(config, this.model, text, reading, signal);
    if (understanding.fallbackReason) {
      this.options.log(`agent: the LLM reader fell back to the rules: ${understanding.fallbackReason}`);
    }
    return { text, understanding, reading };
  }

  /**
   * Whether the last message adopted named a place or asked a theater to offer something that only
   * the theater stage can match ("it has to be at the art house with the café").
   */
  theaterWordsJustSaid = false;

  /** Preferences said only to break a tie ({@link tieBreaksSaid}); a later message that names one plainly takes it out. */
  tieBreaks: string[] = [];

  /** Takes what was heard as the wishes; false when nothing in it was understood (the wishes stay). */
  adopt({ text, understanding, reading }: Heard): boolean {
    const unread = understanding.unread ?? [];
    // "It has to be at the art house with the café" changes no wish the model holds, but it is one.
    const announced = placesAnnounced(text, unread);
    const amenities = amenitiesWished(text);
    const theaterWords = announced.length > 0 || amenities.length > 0;
    if (understanding.unparsed && !theaterWords) return false;
    this.theaterWordsJustSaid = theaterWords;
    const ties = tieBreaksSaid(text);
    const plain = understanding.changed.filter((kind) => !ties.includes(kind as never));
    this.tieBreaks = [...new Set([...this.tieBreaks.filter((kind) => !plain.includes(kind as never)), ...ties])];
    // A theater wish said or withdrawn since ("any cinema is fine") settles the places named before,
    // and those the same words name: "northgate's miles away, anywhere within 5 miles instead".
    const settled = understanding.changed.includes('theater') && announced.length === 0;
    this.places = settled ? [] : [...placesNamed(text, unread), ...this.places].slice(0, MAX_PLACES);
    this.announced = [...announced, ...(settled ? [] : this.announced)].slice(0, MAX_PLACES);
    this.insisted = [...placesInsisted(text, unread), ...(settled ? [] : this.insisted)].slice(0, MAX_PLACES);
    this.maybeFilms = [...placesMaybeFilms(text, unread), ...(settled ? [] : this.maybeFilms)].slice(0, MAX_PLACES);
    this.amenities = [...new Set([...amenities, ...this.amenities])].slice(0, MAX_AMENITIES);
    // Read against the machine's clock (no host has said the study's day yet): kept to read again once one does.
    if (!this.studySure) this.clockReadings.note(this.model, text, reading);
    this.model = understanding.model;
    return true;
  }

  /**
   * Notes what a new state shows: the study's day ({@link studyDayOf}: the host's `meta.today`
   * whenever it gives one; on a host without it, the first day it shows, said on the log) and the
   * films of a movie stage. Returns the wishes read again when words first read against the
   * machine's clock now read differently against the study's day (they are then the wishes).
   */
  saw(context: PerceivedContext): Understanding | null {
    if (context.uiSpec?.stage === 'movie') this.rememberCatalog(context.uiSpec.items);
    if (context.uiSpec?.stage === 'theater') {
      this.theatersSeen = theaterNames(context.uiSpec);
    }
    const named = context.uiSpec?.stage === 'theater' ? this.theatersNamed(context.uiSpec) : null;
    if (named) return named;
    const seen = studyDayOf(context);
    if (!seen) return null;
    const sure = seen.from === 'meta' || seen.from === 'flag';
    // A guess (the chat's timestamps, the first day listed) does not replace a day already taken;
    // the host's own word for it does.
    if (this.studyToday !== null && (!sure || (seen.from === 'flag' && this.studySure && seen.day === this.studyToday)))
      return null;
    this.studyToday = seen.day;
    this.studySure = sure;
    if (seen.from !== 'meta') {
      const where =
        seen.from === 'chat'
          ? "the day of the host's chat timestamps"
          : seen.from === 'flag'
            ? 'the day its date stage marks as today'
            : 'the first day on its date stage';
      this.options.log(
        `agent: the host does not say which day the study is on (no meta.today); taking ${seen.day}, ${where}`,
      );
    }
    const understanding = this.clockReadings.reread(seen.day, !sure);
    if (!understanding) return null;
    this.options.log(`agent: read the participant's words again against the study's day (${seen.day})`);
    this.model = understanding.model;
    return understanding;
  }

  /** A theater the participant named loosely, now that the theater stage shows its name ({@link matchTheaters}). */
  private theatersNamed(spec: UiSpec): Understanding | null {
    const theaters = spec.items.map((item) => ({ id: item.id, name: String(item.name ?? item.value) }));
    const matched = matchTheaters(this.model, theaters);
    const fromPlaces = matched ? null : this.theaterFromPlaces(theaters);
    const named = matched ?? fromPlaces?.model ?? null;
    const model = named ?? this.theaterOffering(spec);
    if (!model) return null;
    const missing = fromPlaces?.missing;
    this.options.log(
      missing
        ? `agent: no theater on this stage is called "${missing}": these are ruled out, to look at other films' theaters`
        : named
          ? 'agent: a theater named before the theater stage matches one of its names as written there'
          : 'agent: the theaters that offer what the participant asked for, as the theater stage lists them',
    );
    this.model = model;
    const listed = orList(
      theaters.map((t) => t.name),
      'or',
    );
    return {
      model,
      changed: ['theater'],
      summary: missing
        ? `I don't see “${missing}” among ${listed}, so I will look at where other films play.`
        : describeModel(model, this.today()),
      unparsed: false,
      fixes: [],
      unread: [],
    };
  }

  /** A theater wish from a place named in lower case, when no theater was wished for and the place names one of these. */
  private theaterFromPlaces(
    theaters: ReadonlyArray<{ id: string; name: string }>,
  ): { model: PreferenceModel; missing?: string } | null {
    const wished = [...this.model.hard, ...this.model.soft].find((c) => c.kind === 'theater');
    if (this.places.length === 0 || (wished && (wished.kind !== 'theater' || (wished.is?.length ?? 0) > 0))) {
      return null;
    }
    const others = (c: PreferenceModel['hard'][number]) => c.kind !== 'theater';
    // A place this stage does not list may be a theater another film plays at: kept until one names a theater.
    const name = theaterFromPlaces(this.places, theaters);
    if (name) {
      this.places = [];
      this.announced = [];
      this.insisted = [];
      this.maybeFilms = [];
      return {
        model: {
          ...this.model,
          hard: byKind([...this.model.hard.filter(others), { kind: 'theater', is: [name] }]).filter(isHardConstraint),
        },
      };
    }
    // "At northgate", and no theater here is called that: these theaters are not the one named, so
    // the agent looks at other films' theaters instead of booking a substitute, and says which
    // place it could not find if none is.
    if (this.insisted.length === 0) return null;
    const before = wished?.kind === 'theater' ? (wished.not ?? []) : [];
    const not = [...new Set([...before, ...theaters.map((t) => t.name)])];
    if (not.length === before.length) return null;
    return {
      model: {
        ...this.model,
        hard: byKind([...this.model.hard.filter(others), { kind: 'theater', not }]).filter(isHardConstraint),
      },
      missing: this.insisted[0],
    };
  }

  /** A theater wish from what the participant asked a theater to offer, when no theater was wished for. */
  private theaterOffering(spec: UiSpec): PreferenceModel | null {
    const wished = [...this.model.hard, ...this.model.soft].find((c) => c.kind === 'theater');
    // A theater named wins; one only ruled out for lacking the amenity (below) may still be replaced.
    if (this.amenities.length === 0 || (wished?.kind === 'theater' && (wished.is?.length ?? 0) > 0)) return null;
    const listed = spec.items.map((item) => ({
      name: String(item.name ?? item.value),
      amenities: Array.isArray(item.amenities) ? item.amenities.map(String) : undefined,
    }));
    const names = theatersOffering(this.amenities, listed);
    const without = (c: PreferenceModel['hard'][number]) => c.kind !== 'theater';
    if (names) {
      this.amenities = [];
      return {
        ...this.model,
        hard: byKind([...this.model.hard.filter(without), { kind: 'theater', is: names }]).filter(isHardConstraint),
      };
    }
    // None of this film's theaters offers it: they are ruled out (the amenity is still wished, and
    // another film's theaters may offer it), so the agent looks further instead of booking there.
    const lacking = theatersLacking(this.amenities, listed);
    if (lacking.length === 0 || lacking.length < listed.length) return null;
    const before = wished?.kind === 'theater' ? (wished.not ?? []) : [];
    const not = [...new Set([...before, ...lacking])];
    if (not.length === before.length) return null;
    return {
      ...this.model,
      hard: byKind([...this.model.hard.filter(without), { kind: 'theater', not }]).filter(isHardConstraint),
    };
  }

  private rememberCatalog(items: UiSpec['items']): void {
    const titles = items.map((item) => String(item.title ?? item.value)).slice(0, MAX_CATALOG);
    const genres = [...new Set(items.flatMap((item) => (Array.isArray(item.genres) ? item.genres.map(String) : [])))];
    const films = items.slice(0, MAX_CATALOG).map((item) => ({
      title: String(item.title ?? item.value),
      genres: Array.isArray(item.genres) ? item.genres.map(String) : [],
      ...(typeof item.ageRating === 'string' && { ageRating: item.ageRating }),
      ...(typeof item.rating === 'number' && { rating: item.rating }),
    }));
    this.catalog = { titles, genres: genres.slice(0, MAX_CATALOG), films };
  }

  private readingContext(context: PerceivedContext): PreferenceContext {
    return {
      today: this.today(),
      knownTitles: this.catalog.titles,
      knownGenres: this.catalog.genres,
      knownFilms: this.catalog.films,
      // The theaters' names as the theater stage shows them, or showed them last: "make it The
      // Regent", "make it northgate instead" on the confirm stage are read as one.
      knownTheaters: context.uiSpec?.stage === 'theater' ? theaterNames(context.uiSpec) : this.theatersSeen,
      onPage: {
        ...(context.chosen.movie && { film: String(context.chosen.movie.title ?? context.chosen.movie.value) }),
        ...(context.chosen.theater && { theater: String(context.chosen.theater.name ?? context.chosen.theater.value) }),
      },
    };
  }

  /**
   * The study's day, against which "tomorrow" or "Friday" are read: the last one a host gave
   * (uiSpec.meta.today), kept while no uiSpec is loaded (the host resets after a booking), since a
   * study runs on its scenario's day whatever the calendar says. Only when no host has ever said
   * is the machine's clock used, and the agent says so.
   */
  private today(): string {
    if (this.studyToday !== null) return this.studyToday;
    const today = this.options.clock().toISOString().slice(0, 10);
    this.options.log(
      `agent: the host has not said which day the study is on; reading dates against the machine's clock (${today})`,
    );
    return today;
  }
}

/** The theater names a theater stage lists (bounded, as the catalog is). */
function theaterNames(spec: UiSpec): string[] {
  return spec.items.slice(0, MAX_CATALOG).map((item) => String(item.name ?? item.value));
}
