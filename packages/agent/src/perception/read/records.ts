import type { Item, Stage } from '@usher/protocol';
import {
  clockFrom,
  endClockAfter,
  formatFrom,
  impliedRatingScale,
  isoDayFrom,
  kmFromMiles,
  kmFromText,
  minutesFromDuration,
  numberFrom,
  ratingOutOf10,
  rowLetters,
  seatFromId,
  seatKindFrom,
} from './units.ts';

/*
 * A host's item records read by meaning: whatever a host calls its fields (`distanceMiles`,
 * `availableSeats`, `stars: "4.2/5"`, `runtime: "1h 45m"`, seat `R3-S7`), each item gets the fields
 * the agent's model reads (`distanceKm`, `seatsLeft`, `rating` out of 10, `durationMinutes`,
 * `endTime`, `row`/`rowIndex`/`number`), converted by units.ts. A field the model already names is
 * kept as the host gave it (Usher's own host gives them all, so its items pass unchanged); the
 * host's own fields stay too, so a `filter` or `sort` may still name them.
 */

type Raw = Record<string, unknown>;

/** What the rest of the view says that a record alone does not. */
export interface RecordHints {
  /** The scale the host's ratings are on (`meta.ratingScale`), when it says. */
  ratingScale?: number;
  /** The chosen film's running time, for showings without an end time. */
  durationMinutes?: number;
  /** The seat map's rows, nearest the screen first (`meta.rows`), as letters. */
  rows?: string[];
}

const MAX_ID = 128;

/** The first of `keys` that `raw` has (not null). */
function first(raw: Raw, keys: readonly string[]): unknown {
  for (const key of keys) if (raw[key] !== undefined && raw[key] !== null) return raw[key];
  return undefined;
}

const firstText = (raw: Raw, keys: readonly string[]): string | undefined => {
  for (const key of keys) {
    const v = raw[key];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  return undefined;
};

const ID_KEYS: Record<Stage, readonly string[]> = {
  movie: ['movieId', 'filmId'],
  theater: ['theaterId', 'theatreId', 'cinemaId', 'venueId'],
  date: ['date', 'day'],
  time: ['showingId', 'showtimeId', 'sessionId', 'screeningId'],
  seat: ['seatId', 'seatRef'],
  ticket: ['typeId', 'ticketTypeId', 'ticketType'],
  confirm: [],
};

/** An item's id: `id`, else the stage's own id keys, else `key`/`ref`/`code`; numbers become strings. */
export function idOf(raw: Raw, stage: Stage): string | undefined {
  // Else the record's own reference key (`sessionRef`, `bookingCode`): a host names its ids its way.
  const own = Object.keys(raw).find((k) => /^[a-z]+(Id|Ref|Code|Key)$/.test(k) && typeof raw[k] === 'string');
  const id = first(raw, ['id', ...ID_KEYS[stage], 'key', 'ref', 'code', 'uuid', ...(own ? [own] : [])]);
  const text = typeof id === 'number' && Number.isFinite(id) ? String(id) : id;
  return typeof text === 'string' && text.length > 0 && text.length <= MAX_ID ? text : undefined;
}

/** The record's own fields the item schema can carry: text, numbers, flags, lists of labels. */
function flatFields(raw: Raw): Item {
  const item: Record<string, Item[string]> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) item[key] = value as Item[string];
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number'))
      item[key] = value.map(String);
  }
  return item as Item;
}

/** A list of labels from a list or a comma-separated string. */
function labels(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (typeof value === 'string' && value.trim() !== '')
    return value
      .split(/\s*[,;/|]\s*/)
      .map((s) => s.trim())
      .filter(Boolean);
  return undefined;
}

const setNumber = (item: Item, key: string, n: number) => {
  if (Number.isFinite(n)) item[key] = n;
};

/** The raw rating of a film and the scale that key implies (`stars` are out of 5). */
function rawRating(raw: Raw): { value: unknown; scale?: number } {
  if (raw.rating !== undefined && raw.rating !== null) return { value: raw.rating };
  if (raw.stars !== undefined) return { value: raw.stars, scale: 5 };
  return { value: first(raw, ['score', 'userRating', 'audienceRating', 'reviewScore', 'averageRating']) };
}

function movie(item: Item, raw: Raw, hints: RecordHints, stageScale: number): void {
  item.title ??= firstText(raw, ['title', 'name', 'movieTitle', 'filmTitle', 'label', 'value']) ?? item.id;
  const genres = labels(first(raw, ['genres', 'genre', 'categories', 'category', 'tags']));
  if (!Array.isArray(raw.genres) && genres) item.genres = genres;
  if (typeof raw.genre !== 'string' && genres?.[0]) item.genre = genres[0];
  if (typeof raw.durationMinutes !== 'number')
    setNumber(
      item,
      'durationMinutes',
      minutesFromDuration(first(raw, ['runtimeMinutes', 'duration', 'runtime', 'length', 'runningTime'])),
    );
  const { value, scale } = rawRating(raw);
  // A number under `rating` is out of 10 unless the host says otherwise; text and other keys may say their scale.
  const explicit = numberFrom(first(raw, ['ratingScale', 'ratingMax', 'ratingOutOf', 'maxRating']));
  const byDefault = typeof value === 'number' && raw.rating !== undefined ? 10 : stageScale;
  const rating = ratingOutOf10(value, Number.isNaN(explicit) ? (scale ?? hints.ratingScale ?? byDefault) : explicit);
  if (Number.isFinite(rating)) item.rating = rating;
  else if (raw.rating !== undefined) delete item.rating;
  const age = firstText(raw, ['certificate', 'certification', 'mpaa', 'contentRating', 'classification', 'rated']);
  if (typeof raw.ageRating !== 'string' && age) item.ageRating = age;
}

function distanceKm(raw: Raw): number {
  const km = numberFrom(first(raw, ['distanceKm', 'distanceKM', 'kilometers', 'km']));
  if (!Number.isNaN(km)) return km;
  const miles = numberFrom(first(raw, ['distanceMiles', 'distanceMi', 'miles']));
  if (!Number.isNaN(miles)) return kmFromMiles(miles);
  const meters = numberFrom(first(raw, ['distanceMeters', 'distanceM']));
  if (!Number.isNaN(meters)) return Math.round(meters / 100) / 10;
  const distance = raw.distance;
  if (typeof distance === 'string') return kmFromText(distance);
  const unit = typeof raw.distanceUnit === 'string' ? raw.distanceUnit : 'km';
  return kmFromText(`${numberFrom(distance)} ${unit}`);
}

function theater(item: Item, raw: Raw): void {
  item.name ??=
    firstText(raw, ['name', 'title', 'cinemaName', 'theaterName', 'theatreName', 'venue', 'label', 'value']) ?? item.id;
  if (typeof raw.distanceKm !== 'number') setNumber(item, 'distanceKm', distanceKm(raw));
  const amenities = labels(first(raw, ['amenities', 'features', 'facilities', 'tags']));
  // A theater that lists no features has unknown ones, not none: no IMAX is ruled out by silence.
  if (!Array.isArray(raw.amenities) && amenities) item.amenities = amenities;
}

function date(item: Item, raw: Raw): void {
  const day = isoDayFrom(first(raw, ['date', 'day', 'isoDate', 'calendarDate'])) ?? isoDayFrom(item.id);
  if (day) item.date = day;
}

function showing(item: Item, raw: Raw, hints: RecordHints): void {
  const start = clockFrom(first(raw, ['time', 'startTime', 'start', 'startsAt', 'showtime', 'begins']));
  if (start) item.time = start;
  const end = clockFrom(first(raw, ['endTime', 'end', 'endsAt', 'finishes', 'ends']));
  const runtime = minutesFromDuration(first(raw, ['durationMinutes', 'runtime', 'duration']));
  // No end time given: the film's running time after the start (the showing's own, else the chosen film's).
  const computed =
    start && endClockAfter(start, Number.isNaN(runtime) ? (hints.durationMinutes ?? Number.NaN) : runtime);
  const endTime = end ?? computed;
  if (endTime) item.endTime = endTime;
  // A showing that names no format is a standard one.
  item.format = formatFrom(first(raw, ['format', 'screen', 'screenType', 'projection', 'experience'])) ?? 'Standard';
  if (typeof raw.startMinutes !== 'number' && start)
    item.startMinutes = Number(start.slice(0, 2)) * 60 + Number(start.slice(3));
  if (typeof raw.seatsLeft !== 'number')
    setNumber(
      item,
      'seatsLeft',
      numberFrom(first(raw, ['availableSeats', 'seatsAvailable', 'remainingSeats', 'freeSeats', 'seatsFree'])),
    );
}

const TAKEN_STATUS = /^(taken|occupied|booked|sold|reserved|unavailable)$/i;

function seat(item: Item, raw: Raw): void {
  const parsed = seatFromId(item.id);
  const row = rowLetters(first(raw, ['row', 'rowLabel', 'rowName', 'rowNumber'])) ?? parsed?.row;
  if (row) item.row = row;
  const number = numberFrom(first(raw, ['number', 'seatNumber', 'seatNo', 'col', 'column', 'position']));
  setNumber(item, 'number', Number.isNaN(number) ? (parsed?.number ?? Number.NaN) : number);
  item.kind = seatKindFrom(first(raw, ['kind', 'seatType', 'type', 'category', 'class', 'tier']));
  if (typeof raw.taken !== 'boolean') {
    const status = typeof raw.status === 'string' && TAKEN_STATUS.test(raw.status);
    const flag = first(raw, ['occupied', 'booked', 'isTaken', 'reserved', 'sold']);
    item.taken = flag === true || status || raw.available === false || raw.isAvailable === false;
  }
  item.isDisabled ??= item.taken === true;
  if (typeof raw.priceSurcharge !== 'number')
    item.priceSurcharge = numberFrom(first(raw, ['surcharge', 'extraCharge', 'extraPrice', 'extra'])) || 0;
}

function ticket(item: Item, raw: Raw): void {
  item.label ??= firstText(raw, ['label', 'name', 'type', 'title']) ?? item.id;
  if (typeof raw.price !== 'number') setNumber(item, 'price', numberFrom(first(raw, ['amount', 'cost', 'unitPrice'])));
}

/** What the participant sees on an item without a `value`: its title, name, label or time. */
function labelOf(item: Item, stage: Stage, raw: Raw): string {
  const own = firstText(raw, ['label', 'displayName', 'text']);
  switch (stage) {
    case 'movie':
      return String(item.title ?? own ?? item.id);
    case 'theater':
      return String(item.name ?? own ?? item.id);
    case 'time':
      return item.time ? `${item.time} · ${item.format}` : (own ?? item.id);
    case 'ticket':
      return String(item.label ?? own ?? item.id);
    default:
      return own ?? item.id;
  }
}

/**
 * Seats priced one by one (`price: 14`, the prototype's) with no surcharge of their own: each
 * costs its price above the cheapest seat of the map.
 */
function surchargesFromPrices(items: Item[], raws: readonly Raw[]): void {
  if (raws.some((r) => r.priceSurcharge !== undefined || first(r, ['surcharge', 'extraCharge', 'extraPrice', 'extra'])))
    return;
  const prices = items.map((item) => numberFrom(item.price));
  const shown = prices.filter(Number.isFinite);
  if (shown.length !== items.length || shown.length === 0) return;
  const cheapest = Math.min(...shown);
  items.forEach((item, n) => {
    item.priceSurcharge = Math.round(((prices[n] as number) - cheapest) * 100) / 100;
  });
}

/** Row indexes (0 nearest the screen) from the map's rows, else from the seats' own rows in order. */
function indexRows(items: Item[], rows: readonly string[] | undefined): void {
  const order =
    rows && rows.length > 0
      ? rows
      : [...new Set(items.flatMap((i) => (typeof i.row === 'string' ? [i.row] : [])))].sort(
          (a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0),
        );
  for (const item of items) {
    if (typeof item.rowIndex === 'number' || typeof item.row !== 'string') continue;
    const at = order.indexOf(item.row);
    if (at >= 0) item.rowIndex = at;
  }
}

/**
 * A stage's records as the agent's items; a record without a usable id is left out (and counted,
 * so the reader can say so).
 */
export function readItems(
  stage: Stage,
  records: readonly unknown[],
  hints: RecordHints = {},
): { items: Item[]; dropped: number } {
  const raws = records.filter((r): r is Raw => typeof r === 'object' && r !== null && !Array.isArray(r));
  // Ratings given as text or under other keys take the scale the stage's ratings imply.
  const stageScale = stage === 'movie' ? impliedRatingScale(raws.map((r) => numberFrom(rawRating(r).value))) : 10;
  const items: Item[] = [];
  for (const raw of raws) {
    const id = idOf(raw, stage);
    if (id === undefined) continue;
    const item: Item = { ...flatFields(raw), id, value: '' };
    if (typeof raw.isDisabled !== 'boolean') {
      const off = first(raw, ['disabled', 'soldOut', 'unavailable']);
      if (typeof off === 'boolean') item.isDisabled = off;
      else delete item.isDisabled;
    }
    if (stage === 'movie') movie(item, raw, hints, stageScale);
    else if (stage === 'theater') theater(item, raw);
    else if (stage === 'date') date(item, raw);
    else if (stage === 'time') showing(item, raw, hints);
    else if (stage === 'seat') seat(item, raw);
    else if (stage === 'ticket') ticket(item, raw);
    item.value = typeof raw.value === 'string' ? raw.value : labelOf(item, stage, raw);
    items.push(item);
  }
  if (stage === 'seat') {
    indexRows(items, hints.rows);
    surchargesFromPrices(items, raws);
  }
  return { items, dropped: records.length - items.length };
}

/** The fields the agent's model reads on each stage's items, and the values some of them take. */
const MODEL_FIELDS: Record<Stage, Record<string, 'string' | 'number' | 'boolean' | 'object'>> = {
  movie: { title: 'string', genres: 'object', rating: 'number', durationMinutes: 'number' },
  theater: { name: 'string', distanceKm: 'number', amenities: 'object' },
  date: { date: 'string' },
  time: { time: 'string', endTime: 'string', format: 'string', startMinutes: 'number', seatsLeft: 'number' },
  seat: {
    row: 'string',
    rowIndex: 'number',
    number: 'number',
    kind: 'string',
    taken: 'boolean',
    priceSurcharge: 'number',
  },
  ticket: { label: 'string', price: 'number' },
  confirm: {},
};
const FORMATS = new Set(['IMAX', '3D', 'Standard']);
const SEAT_KINDS = new Set(['standard', 'premium', 'wheelchair']);

/**
 * Whether a stage's items already carry every field the agent's model reads, in its units, so
 * reading them by meaning would change nothing (Usher's own host): they are then used as they
 * came, which keeps the agent's cost per frame what it was on Usher's host.
 */
export function inModelTerms(stage: Stage, items: readonly Item[]): boolean {
  const fields = Object.entries(MODEL_FIELDS[stage]);
  return items.every(
    (item) =>
      fields.every(([key, type]) => typeof item[key] === type) &&
      (stage !== 'time' || FORMATS.has(item.format as string)) &&
      (stage !== 'seat' || SEAT_KINDS.has(item.kind as string)),
  );
}
