import { clockMinutes, durationMinutes } from './catalog.ts';

/*
 * The prototype host's page model: the uiSpec it sends for each stage (its stage order, titles,
 * items, `visibleItems` computed from the items and the modification state, `state.selected` /
 * `selectedList` / `highlighted` / `workflow`), the GUI modifications an agent may apply, and the
 * tools it offers per stage, with parameters described as `{name: {type, description}}` rather
 * than JSON Schema and no categories. Written from the research prototype's published behaviour,
 * not from its code.
 */

export type Stage = 'movie' | 'theater' | 'date' | 'time' | 'seat' | 'confirm';
export const STAGES: readonly Stage[] = ['movie', 'theater', 'date', 'time', 'seat', 'confirm'];

export interface DisplayItem {
  id: string;
  value: string;
  isDisabled?: boolean;
}

export interface Item {
  id: string;
  [key: string]: unknown;
}

/** The chosen items so far, each the stage's raw item (the whole record, as the page keeps it). */
export interface Workflow {
  movie?: Item;
  theater?: Item;
  date?: Item;
  showing?: Item;
  seats?: Item[];
}

export interface FilterState {
  field: string;
  operator: 'eq' | 'neq' | 'contains' | 'gt' | 'lt' | 'gte' | 'lte' | 'in';
  value: unknown;
}

export interface Modification {
  filter?: FilterState[];
  sort?: { field: string; order: 'asc' | 'desc' };
  highlight?: { itemIds: string[] };
  augment?: Array<{ itemId: string; value: string }>;
}

export interface UISpec {
  stage: Stage;
  title: string;
  description?: string;
  visibleItems: DisplayItem[];
  state: {
    selected?: DisplayItem;
    selectedList?: DisplayItem[];
    highlighted?: DisplayItem[];
    workflow?: Workflow;
  };
  items: Item[];
  modification: Modification;
  display: { valueField: string; component: 'buttonGroup' | 'calendar' | 'seatMap' | 'summary' };
  meta?: Record<string, unknown>;
}

const PAGES: Record<Stage, Pick<UISpec, 'title' | 'description' | 'display'>> = {
  movie: {
    title: 'Select Movie',
    description: 'Choose a movie you want to watch',
    display: { valueField: 'title', component: 'buttonGroup' },
  },
  theater: {
    title: 'Select Theater',
    description: 'Choose a theater near you',
    display: { valueField: 'name', component: 'buttonGroup' },
  },
  date: {
    title: 'Select Date',
    description: 'Pick a date for your movie',
    display: { valueField: 'displayText', component: 'calendar' },
  },
  time: {
    title: 'Select Showtime',
    description: 'Showtime with screen type',
    display: { valueField: 'displayTime', component: 'buttonGroup' },
  },
  seat: {
    title: 'Select Seats',
    description: 'Choose your seats',
    display: { valueField: 'label', component: 'seatMap' },
  },
  confirm: {
    title: 'Confirm Booking',
    description: 'Review your booking details',
    display: { valueField: 'id', component: 'summary' },
  },
};

/** A stage's page before anything is chosen on it. */
export function newPage(stage: Stage, items: Item[], meta?: Record<string, unknown>): UISpec {
  const page: UISpec = {
    stage,
    ...PAGES[stage],
    visibleItems: [],
    state: stage === 'seat' ? { selectedList: [] } : {},
    items,
    modification: {},
    ...(meta && { meta }),
  };
  return { ...page, visibleItems: visibleItemsOf(page) };
}

/** The page once the booking is made: still the confirm stage, titled and marked as done. */
export function completedPage(confirm: UISpec, bookingId: string): UISpec {
  return {
    ...confirm,
    title: 'Booking Complete',
    description: 'Your booking has been confirmed',
    visibleItems: [],
    state: { ...(confirm.state.workflow && { workflow: confirm.state.workflow }) },
    modification: {},
    meta: { ...confirm.meta, status: 'completed', bookingId },
  };
}

export const isCompleted = (page: UISpec | null) => page?.stage === 'confirm' && page.meta?.status === 'completed';

// --- visible items -----------------------------------------------------------------------------

const fieldOf = (item: Item, field: string, valueField: string) => (field === 'value' ? item[valueField] : item[field]);

/** Durations and clock times compare by minutes; the rest as they are. */
function comparable(field: string, value: unknown, valueField: string): unknown {
  const name = field === 'value' ? valueField : field;
  if (name === 'duration') return (typeof value === 'number' ? value : durationMinutes(String(value))) ?? value;
  if (name === 'time') return clockMinutes(value) ?? value;
  return value;
}

function order(a: unknown, b: unknown): number {
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
}

function passes(item: Item, filter: FilterState, valueField: string): boolean {
  const raw = fieldOf(item, filter.field, valueField);
  const left = comparable(filter.field, raw, valueField);
  const right = comparable(filter.field, filter.value, valueField);
  switch (filter.operator) {
    case 'eq':
      return raw === filter.value;
    case 'neq':
      return raw !== filter.value;
    case 'contains':
      return Array.isArray(raw) ? raw.includes(filter.value) : String(raw).includes(String(filter.value));
    case 'gt':
      return order(left, right) > 0;
    case 'lt':
      return order(left, right) < 0;
    case 'gte':
      return order(left, right) >= 0;
    case 'lte':
      return order(left, right) <= 0;
    case 'in':
      return Array.isArray(filter.value) && filter.value.includes(raw);
    default:
      return true;
  }
}

/** What the page shows: the items filtered, sorted, with their display text (or its augmented text). */
export function visibleItemsOf(page: UISpec): DisplayItem[] {
  const valueField = page.display.valueField;
  let items = [...page.items];
  for (const filter of page.modification.filter ?? []) items = items.filter((i) => passes(i, filter, valueField));
  const sort = page.modification.sort;
  if (sort) {
    items.sort((a, b) => {
      const by = order(
        comparable(sort.field, fieldOf(a, sort.field, valueField), valueField),
        comparable(sort.field, fieldOf(b, sort.field, valueField), valueField),
      );
      return sort.order === 'asc' ? by : -by;
    });
  }
  const augmented = new Map((page.modification.augment ?? []).map((a) => [a.itemId, a.value]));
  return items.map((item) => {
    const shown: DisplayItem = { id: item.id, value: augmented.get(item.id) ?? String(item[valueField] ?? item.id) };
    if (item.status === 'occupied') shown.isDisabled = true;
    return shown;
  });
}

/** The page with its visible items and highlighted list worked out again after a modification. */
export function refreshed(page: UISpec): UISpec {
  const visibleItems = visibleItemsOf(page);
  const ids = page.modification.highlight?.itemIds ?? [];
  const byId = new Map(visibleItems.map((v) => [v.id, v]));
  const valueField = page.display.valueField;
  for (const item of page.items)
    if (!byId.has(item.id)) byId.set(item.id, { id: item.id, value: String(item[valueField] ?? item.id) });
  const highlighted = ids.length ? ids.flatMap((id) => byId.get(id) ?? []) : undefined;
  const state = { ...page.state };
  if (highlighted) state.highlighted = highlighted;
  else delete state.highlighted;
  return { ...page, visibleItems, state };
}

/** A visible item that is not disabled, as the page shows it. */
const selectable = (page: UISpec, id: unknown) => page.visibleItems.find((v) => v.id === id && !v.isDisabled);

/** One item chosen (movie, theater, date, time); an id the page cannot select leaves the page as it was. */
export function selectOne(page: UISpec, id: unknown): UISpec {
  const item = selectable(page, id);
  return item ? { ...page, state: { ...page.state, selected: item } } : page;
}

/** The seats chosen: every id the page cannot select is left out. */
export function selectMany(page: UISpec, ids: readonly unknown[]): UISpec {
  const selectedList = ids.flatMap((id) => selectable(page, id) ?? []);
  return { ...page, state: { ...page.state, selectedList } };
}

/** A seat added to the chosen ones, or taken off them. */
export function toggle(page: UISpec, id: unknown): UISpec {
  const ids = (page.state.selectedList ?? []).map((s) => s.id);
  return selectMany(page, ids.includes(id as string) ? ids.filter((x) => x !== id) : [...ids, id]);
}

export function withFilter(page: UISpec, filter: FilterState): UISpec {
  const filters = page.modification.filter ?? [];
  const same = filters.some(
    (f) =>
      f.field === filter.field &&
      f.operator === filter.operator &&
      JSON.stringify(f.value) === JSON.stringify(filter.value),
  );
  return refreshed({ ...page, modification: { ...page.modification, filter: same ? filters : [...filters, filter] } });
}

export function withModification(page: UISpec, change: Modification): UISpec {
  return refreshed({ ...page, modification: { ...page.modification, ...change } });
}

export function cleared(page: UISpec, type: unknown): UISpec {
  if (type === undefined || type === 'all') return refreshed({ ...page, modification: {} });
  const modification = { ...page.modification };
  delete modification[type as keyof Modification];
  return refreshed({ ...page, modification });
}

// --- tools -------------------------------------------------------------------------------------

export interface ToolParameter {
  type: string;
  description: string;
  enum?: string[];
  optional?: boolean;
}
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, ToolParameter>;
}

const TOOLS: ToolDefinition[] = [
  {
    name: 'filter',
    description: 'Add a filter condition on the raw item fields; repeated calls add up (all must hold).',
    parameters: {
      field: { type: 'string', description: 'Item field to filter by ("value" for the shown text)' },
      operator: {
        type: 'string',
        description: 'Comparison operator',
        enum: ['eq', 'neq', 'contains', 'gt', 'lt', 'gte', 'lte', 'in'],
      },
      value: { type: 'any', description: 'Value to compare with' },
    },
  },
  {
    name: 'sort',
    description: 'Order the items by a field; hides nothing.',
    parameters: {
      field: { type: 'string', description: 'Item field to sort by' },
      order: { type: 'string', description: 'Sort order', enum: ['asc', 'desc'] },
    },
  },
  {
    name: 'highlight',
    description: 'Mark items on screen without selecting them.',
    parameters: { itemIds: { type: 'array', description: 'Ids of the items to mark' } },
  },
  {
    name: 'augment',
    description: 'Replace the shown text of some items.',
    parameters: { items: { type: 'array', description: 'A list of { itemId, value }' } },
  },
  {
    name: 'clearModification',
    description: 'Remove applied modifications (all filters at once).',
    parameters: {
      type: {
        type: 'string',
        description: 'Which modification to remove',
        enum: ['filter', 'sort', 'highlight', 'augment', 'all'],
        optional: true,
      },
    },
  },
  {
    name: 'select',
    description: 'Select an item of the current stage.',
    parameters: { itemId: { type: 'string', description: 'Id of the item' } },
  },
  {
    name: 'selectMultiple',
    description: 'Seat stage only: make these seats the whole selection.',
    parameters: { itemIds: { type: 'array', description: 'Ids of every seat to select' } },
  },
  {
    name: 'next',
    description: 'Go on to the next stage with what is selected.',
    parameters: {},
  },
  {
    name: 'prev',
    description: 'Go back to the previous stage, restoring what was chosen there when it still fits.',
    parameters: {},
  },
  {
    name: 'postMessage',
    description: 'Post a short message in the chat.',
    parameters: { text: { type: 'string', description: 'The message' } },
  },
];

const INTERACTION: Record<Stage, string[]> = {
  movie: ['select'],
  theater: ['select', 'prev'],
  date: ['select', 'prev'],
  time: ['select', 'prev'],
  seat: ['select', 'selectMultiple', 'prev'],
  confirm: ['prev'],
};
const ADAPTATION: Record<Stage, string[]> = {
  movie: ['filter', 'sort', 'highlight', 'augment', 'clearModification'],
  theater: ['filter', 'sort', 'highlight', 'augment', 'clearModification'],
  date: ['highlight', 'clearModification'],
  time: ['filter', 'sort', 'highlight', 'augment', 'clearModification'],
  seat: ['highlight', 'clearModification'],
  confirm: [],
};

/** Whether `next` may go on: something chosen, a seat or more, or a confirm page not yet booked. */
export function complete(page: UISpec): boolean {
  if (page.stage === 'seat') return (page.state.selectedList?.length ?? 0) > 0;
  if (page.stage === 'confirm') return !isCompleted(page);
  return page.state.selected !== undefined;
}

/** The tools offered on a page (with none, only `postMessage`). */
export function toolsFor(page: UISpec | null, guiAdaptation: boolean): ToolDefinition[] {
  if (!page) return TOOLS.filter((t) => t.name === 'postMessage');
  const names = new Set([...INTERACTION[page.stage], 'postMessage', ...(guiAdaptation ? ADAPTATION[page.stage] : [])]);
  if (!page.visibleItems.some((v) => !v.isDisabled)) {
    names.delete('select');
    names.delete('selectMultiple');
  }
  if (complete(page)) names.add('next');
  return TOOLS.filter((t) => names.has(t.name));
}

/** The stage guide the latest prototype sends in its snapshots (`stageMeta`), in short. */
export const STAGE_GUIDE: ReadonlyArray<{ stage: Stage; goal: string; fieldGuide: string }> = [
  {
    stage: 'movie',
    goal: 'Pick one movie.',
    fieldGuide: 'Fields: title, genre, rating, duration, ageRating, synopsis.',
  },
  {
    stage: 'theater',
    goal: 'Pick one theater for the movie.',
    fieldGuide: 'Fields: name, location, distanceMiles, screenCount, amenities. Formats belong to showtimes.',
  },
  {
    stage: 'date',
    goal: 'Pick one date.',
    fieldGuide: 'Fields: date, dayOfWeek, displayText, available, isToday.',
  },
  {
    stage: 'time',
    goal: 'Pick one showtime.',
    fieldGuide: 'Fields: time, displayTime, endTime, displayEndTime, format, screenNumber.',
  },
  {
    stage: 'seat',
    goal: 'Pick one or more seats.',
    fieldGuide: 'Fields: row, number, label, type, price, status.',
  },
  { stage: 'confirm', goal: 'Confirm the booking.', fieldGuide: 'A summary of the choices and the total price.' },
];
