import {
  BookingSummarySchema,
  type ChatEntry,
  DisplaySchema,
  MODIFICATION_TOOLS,
  ModificationSchema,
  STAGES,
  type Stage,
  type ToolDefinition,
  type UiSpec,
} from '@usher/protocol';
import { idOf, type RecordHints, readItems } from './records.ts';
import { isoDayFrom, numberFrom, rowLetters } from './units.ts';

/*
 * The three read surfaces (uiSpec, messageHistory, toolSchema) read liberally: what the agent acts
 * on is checked, everything else a host adds is ignored. Usher's own frames come out as they went in.
 */

type Raw = Record<string, unknown>;
const isRecord = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A stage name, also in the forms other hosts use ("showtime", "seats", "summary"). */
const STAGE_ALIASES: Record<string, Stage> = {
  movies: 'movie',
  film: 'movie',
  films: 'movie',
  theaters: 'theater',
  theatre: 'theater',
  cinema: 'theater',
  cinemas: 'theater',
  venue: 'theater',
  day: 'date',
  showtime: 'time',
  showtimes: 'time',
  showing: 'time',
  session: 'time',
  seats: 'seat',
  tickets: 'ticket',
  summary: 'confirm',
  review: 'confirm',
  checkout: 'confirm',
  confirmation: 'confirm',
};

export function stageFrom(value: unknown): Stage | undefined {
  if (typeof value !== 'string') return undefined;
  const t = value.trim().toLowerCase();
  return (STAGES as readonly string[]).includes(t) ? (t as Stage) : STAGE_ALIASES[t];
}

/** An id from a string, a number, or an object's `id` (`{id, value}`). */
export function idFrom(value: unknown): string | undefined {
  if (typeof value === 'string' && value.length > 0 && value.length <= 128) return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return isRecord(value) ? idFrom(value.id) : undefined;
}

const DISPLAY_BY_STAGE: Record<Stage, UiSpec['display']['component']> = {
  movie: 'buttonGroup',
  theater: 'buttonGroup',
  date: 'calendar',
  time: 'buttonGroup',
  seat: 'seatMap',
  ticket: 'counter',
  confirm: 'summary',
};

/** `meta` with the seat map's rows as letters, the aisles, and the study's day under the names the agent reads. */
function readMeta(raw: unknown): Raw | undefined {
  if (!isRecord(raw)) return undefined;
  const meta: Raw = { ...raw };
  if (Array.isArray(raw.rows)) meta.rows = raw.rows.map((r) => rowLetters(r) ?? String(r));
  if (!Array.isArray(raw.aisleAfter)) {
    const aisles = raw.aisles ?? raw.aisleAfterSeat;
    if (Array.isArray(aisles)) meta.aisleAfter = aisles.map(numberFrom).filter(Number.isFinite);
  }
  if (typeof raw.today !== 'string') {
    const today = isoDayFrom(raw.currentDate ?? raw.studyDate ?? raw.todayDate);
    if (today) meta.today = today;
  }
  return meta;
}

/** The running total, currency and tickets of a host's own summary (`total`, `totalPrice`, `tickets: [{type, count, price}]`). */
function foreignSummary(state: Raw): NonNullable<UiSpec['state']['booking']> {
  const holder = [state, state.summary, state.order, state.cart, state.booking].filter(isRecord);
  const booking: NonNullable<UiSpec['state']['booking']> = {};
  for (const h of holder) {
    const total = numberFrom(h.total ?? h.totalPrice ?? h.amount ?? h.grandTotal);
    if (booking.total === undefined && Number.isFinite(total)) booking.total = total;
    if (booking.currency === undefined && typeof h.currency === 'string') booking.currency = h.currency;
    if (booking.tickets === undefined && Array.isArray(h.tickets)) {
      booking.tickets = h.tickets.filter(isRecord).map((t) => {
        const label = String(t.label ?? t.type ?? t.name ?? t.typeId ?? 'ticket');
        return {
          typeId: String(t.typeId ?? label).toLowerCase(),
          label,
          quantity: numberFrom(t.quantity ?? t.count ?? t.qty) || 0,
          unitPrice: numberFrom(t.unitPrice ?? t.price) || 0,
        };
      });
    }
  }
  return booking;
}

/** A ticket stage's counts as its rows show them (`count`, `quantity`, `qty` on every item), for hosts without `state.quantities`. */
function countsOnRows(items: readonly Raw[]): Record<string, number> | undefined {
  const counts: Record<string, number> = {};
  for (const item of items) {
    const n = [item.quantity, item.count, item.qty].find((v) => v !== undefined && v !== null);
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) return undefined;
    counts[String(item.id)] = n;
  }
  return items.length > 0 ? counts : undefined;
}

function readState(raw: unknown, meta?: Raw): UiSpec['state'] {
  const state: Raw = isRecord(raw) ? raw : {};
  const out: UiSpec['state'] = {};
  const selected = idFrom(state.selected ?? state.selectedId);
  if (selected !== undefined) out.selected = selected;
  const list = state.selectedList ?? state.selectedIds ?? state.selectedSeats ?? state.selection;
  if (Array.isArray(list)) out.selectedList = list.flatMap((v) => idFrom(v) ?? []);
  else if (Array.isArray(state.selected)) out.selectedList = state.selected.flatMap((v) => idFrom(v) ?? []);
  if (isRecord(state.quantities)) {
    out.quantities = Object.fromEntries(
      Object.entries(state.quantities).filter(
        (e): e is [string, number] => Number.isInteger(e[1]) && Number(e[1]) >= 0,
      ),
    );
  }
  const booking = BookingSummarySchema.safeParse(state.booking);
  if (booking.success) out.booking = booking.data;
  else {
    // A summary page may give its total in `meta` (`totalPrice`, the prototype's confirm stage).
    const summary = foreignSummary(meta ? { ...state, summary: state.summary ?? meta } : state);
    if (Object.keys(summary).length > 0) out.booking = summary;
  }
  return out;
}

/** Each visible record over the record of `items` with the same id, so a stub keeps its item's fields. */
function withRecords(visible: readonly unknown[], records: readonly unknown[], stage: Stage): unknown[] {
  const byId = new Map<string, Raw>();
  for (const r of records) {
    if (!isRecord(r)) continue;
    const id = idOf(r, stage);
    if (id !== undefined && !byId.has(id)) byId.set(id, r);
  }
  if (byId.size === 0) return [...visible];
  return visible.map((v) => {
    if (!isRecord(v)) return v;
    const id = idFrom(v.id);
    const record = id === undefined ? undefined : byId.get(id);
    return record ? { ...record, ...v } : v;
  });
}

/** A uiSpec read liberally, or why it cannot be used (no stage the agent knows). */
export function readUiSpec(
  raw: unknown,
): { ok: true; spec: UiSpec | null; dropped: number } | { ok: false; why: string } {
  if (raw === null || raw === undefined) return { ok: true, spec: null, dropped: 0 };
  if (!isRecord(raw)) return { ok: false, why: 'uiSpec is not an object' };
  const stage = stageFrom(raw.stage);
  if (!stage)
    return { ok: false, why: `uiSpec.stage ${JSON.stringify(raw.stage)?.slice(0, 40)} is not a booking stage` };
  const meta = readMeta(raw.meta);
  const hints: RecordHints = {};
  const scale = numberFrom(meta?.ratingScale ?? meta?.ratingMax);
  if (scale > 0) hints.ratingScale = scale;
  if (Array.isArray(meta?.rows)) hints.rows = meta.rows.map(String);
  const records = Array.isArray(raw.items) ? raw.items : Array.isArray(raw.visibleItems) ? raw.visibleItems : [];
  const all = readItems(stage, records, hints);
  // A host's visible items may be display stubs (`{id, value, isDisabled}`, the prototype's): each is
  // read with its record from `items` under it, so what the stage shows is judged on the whole record.
  const visibleRecords = Array.isArray(raw.visibleItems) ? withRecords(raw.visibleItems, records, stage) : null;
  const visible = visibleRecords
    ? readItems(stage, visibleRecords, hints)
    : { items: all.items.map((i) => ({ ...i })), dropped: 0 };
  const modification = ModificationSchema.safeParse(raw.modification ?? {});
  const display = DisplaySchema.safeParse(raw.display);
  const spec: UiSpec = {
    stage,
    title: typeof raw.title === 'string' ? raw.title : '',
    items: all.items,
    visibleItems: visible.items,
    state: readState(raw.state, stage === 'confirm' ? meta : undefined),
    modification: modification.success ? modification.data : {},
    display: display.success ? display.data : { component: DISPLAY_BY_STAGE[stage], valueField: 'value' },
  };
  if (typeof raw.description === 'string') spec.description = raw.description;
  if (meta) spec.meta = meta;
  if (stage === 'ticket' && spec.state.quantities === undefined) {
    const counts = countsOnRows(all.items);
    if (counts) spec.state.quantities = counts;
  }
  return { ok: true, spec, dropped: all.dropped + visible.dropped };
}

function roleFrom(value: unknown): ChatEntry['role'] {
  const t = typeof value === 'string' ? value.toLowerCase() : '';
  if (/participant|user|human|customer|guest/.test(t)) return 'participant';
  if (/agent|assistant|bot|\bai\b/.test(t)) return 'agent';
  return 'system';
}

/** Chat entries of any common shape (`{role, text}`, `{type, content, timestamp: <ms>}`); entries without text are left out. */
export function readHistory(raw: unknown): ChatEntry[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isRecord).flatMap((e, n) => {
    const text = [e.text, e.content, e.message, e.body].find((t) => typeof t === 'string');
    if (typeof text !== 'string') return [];
    const when = e.timestamp ?? e.time ?? e.at ?? e.createdAt;
    const timestamp =
      typeof when === 'string'
        ? when
        : typeof when === 'number' && Number.isFinite(when)
          ? new Date(when).toISOString()
          : '';
    const entry: ChatEntry = {
      id: idFrom(e.id) ?? `entry-${n}`,
      role: roleFrom(e.role ?? e.sender ?? e.from ?? e.author ?? e.type),
      text,
      timestamp: timestamp.length <= 64 && !Number.isNaN(Date.parse(timestamp)) ? timestamp : '',
    };
    const stage = stageFrom(e.stage);
    if (stage) entry.stage = stage;
    return [entry];
  });
}

/** A field's JSON Schema from a field map's entry: `"string"`, `"string[]"`, `"number?"`, or `{type, required}`. */
function fieldSchema(spec: unknown): { schema: Raw; optional: boolean } {
  if (typeof spec === 'string') {
    const optional = spec.endsWith('?');
    const type = spec.replace(/\?$/, '').trim();
    const schema = type.endsWith('[]') ? { type: 'array', items: { type: type.slice(0, -2) } } : { type };
    return { schema, optional };
  }
  if (isRecord(spec)) {
    const { required, optional, ...schema } = spec;
    return { schema, optional: required === false || optional === true };
  }
  return { schema: {}, optional: false };
}

/** A tool's parameters as JSON Schema, from JSON Schema or from a map of fields (`{itemId: "string"}`). */
export function parametersSchema(raw: unknown): Record<string, unknown> {
  if (!isRecord(raw)) return { type: 'object', properties: {} };
  if (raw.type === 'object' || isRecord(raw.properties)) return raw;
  const properties: Raw = {};
  const required: string[] = [];
  for (const [name, spec] of Object.entries(raw)) {
    const { schema, optional } = fieldSchema(spec);
    properties[name] = schema;
    if (!optional) required.push(name);
  }
  return { type: 'object', properties, required };
}

const PAGE_TOOLS: readonly string[] = MODIFICATION_TOOLS;

/** Tools with a name; `category` and `description` filled in when missing, parameters as JSON Schema. */
export function readTools(raw: unknown): ToolDefinition[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isRecord).flatMap((t) => {
    if (typeof t.name !== 'string' || t.name.length === 0 || t.name.length > 64) return [];
    const category =
      t.category === 'modification' || t.category === 'interaction'
        ? t.category
        : PAGE_TOOLS.includes(t.name)
          ? 'modification'
          : 'interaction';
    return [
      {
        name: t.name,
        description: typeof t.description === 'string' ? t.description : '',
        category,
        parameters: parametersSchema(t.parameters ?? t.params ?? t.inputSchema ?? t.arguments),
      },
    ];
  });
}
