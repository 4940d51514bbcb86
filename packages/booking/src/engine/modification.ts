import { type Filter, type Item, type Modification, ProtocolError, type Sort, type ToolParams } from '@usher/protocol';

/*
 * The five modification tools (DESIGN.md, "Booking domain"). They change how the current stage is
 * presented, never what the participant chose. Each function validates against the items first
 * and returns a new modification, so a refused call changes nothing.
 */

type FieldKind = 'string' | 'number' | 'boolean' | 'array';
type Scalar = string | number | boolean;

/**
 * An item's own field: never one it inherits (`constructor`, `__proto__`, `toString`), which no
 * record has and no tool may name.
 */
function own(item: Item, field: string): Item[string] | undefined {
  return Object.hasOwn(item, field) ? item[field] : undefined;
}

function kindOf(items: readonly Item[], field: string): FieldKind | undefined {
  for (const item of items) {
    const value = own(item, field);
    if (value === undefined || value === null) continue;
    return Array.isArray(value) ? 'array' : (typeof value as FieldKind);
  }
  return undefined;
}

function fieldKindOrThrow(items: readonly Item[], field: string, tool: string): FieldKind {
  const kind = kindOf(items, field);
  if (kind === undefined) {
    const fields = [...new Set(items.flatMap((item) => Object.keys(item)))];
    throw new ProtocolError(
      'INVALID_PARAMS',
      `${tool}: no item on this stage has a field "${field}"; fields here: ${fields.join(', ') || '(no items)'}`,
    );
  }
  return kind;
}

/** Converts a filter value to the type of an item's field (numbers may arrive as text, flags as "true"). */
function asKind(value: Scalar, kind: FieldKind): Scalar {
  if (kind === 'number')
    return typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : Number.NaN;
  if (kind === 'boolean')
    return value === true || value === 'true' ? true : value === false || value === 'false' ? false : Number.NaN;
  return String(value).toLowerCase();
}

const ORDERED = new Set(['gt', 'lt', 'gte', 'lte']);

/** Refuses a filter that cannot mean anything on this stage's items. */
function checkFilter(items: readonly Item[], filter: Filter): void {
  const kind = fieldKindOrThrow(items, filter.field, 'filter');
  const { field, operator, value } = filter;
  const bad = (why: string) => new ProtocolError('INVALID_PARAMS', `filter ${field} ${operator}: ${why}`);
  if (operator === 'in' && !Array.isArray(value)) throw bad('"in" needs a list value, e.g. ["IMAX", "3D"]');
  if (operator !== 'in' && Array.isArray(value)) throw bad('a list value needs the "in" operator');
  if (ORDERED.has(operator) && (kind === 'boolean' || kind === 'array')) {
    throw bad(
      `"${field}" is ${kind === 'array' ? 'a list' : 'true or false'}; use eq, neq${kind === 'array' ? ', contains' : ''} or in`,
    );
  }
  if (operator === 'contains' && (kind === 'number' || kind === 'boolean')) {
    throw bad(`"contains" works on text and list fields; "${field}" is a ${kind}, use eq, gt, lt …`);
  }
  if (operator === 'in' && kind === 'boolean') throw bad(`"${field}" is true or false; use eq`);
  const values = Array.isArray(value) ? value : [value];
  for (const v of values) {
    if (kind === 'number' && Number.isNaN(asKind(v, 'number')))
      throw bad(`"${field}" is a number; ${JSON.stringify(v)} is not`);
    if (kind === 'boolean' && Number.isNaN(asKind(v, 'boolean')))
      throw bad(`"${field}" is true or false; ${JSON.stringify(v)} is neither`);
  }
}

/**
 * Whether one item passes one filter. Text compares case-insensitively; on a list field `eq` and
 * `contains` mean membership and `in` means any overlap. An item without the field passes only `neq`.
 */
export function matches(item: Item, filter: Filter): boolean {
  const raw = own(item, filter.field);
  const { operator, value } = filter;
  if (raw === undefined || raw === null) return operator === 'neq';
  if (Array.isArray(raw)) {
    const members = raw.map((v) => v.toLowerCase());
    if (Array.isArray(value)) return value.some((v) => members.includes(String(v).toLowerCase()));
    const has = members.includes(String(value).toLowerCase());
    return operator === 'neq' ? !has : has;
  }
  const kind = typeof raw as FieldKind;
  const field = asKind(raw, kind);
  if (Array.isArray(value)) return value.some((v) => asKind(v, kind) === field);
  const target = asKind(value, kind);
  switch (operator) {
    case 'eq':
    case 'in':
      return field === target;
    case 'neq':
      return field !== target;
    case 'contains':
      return String(field).includes(String(target));
    case 'gt':
      return field > target;
    case 'gte':
      return field >= target;
    case 'lt':
      return field < target;
    case 'lte':
      return field <= target;
  }
}

function sortKey(value: Item[string] | undefined): string | number | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.join(', ').toLowerCase();
  if (typeof value === 'boolean') return value ? 1 : 0;
  return typeof value === 'string' ? value.toLowerCase() : value;
}

function compareItems(a: Item, b: Item, sort: Sort): number {
  const x = sortKey(own(a, sort.field));
  const y = sortKey(own(b, sort.field));
  // Items without the field go last whatever the order, so they never crowd out real answers.
  if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
  const order = x < y ? -1 : x > y ? 1 : 0;
  return sort.order === 'asc' ? order : -order;
}

/** The visible items: `items` filtered (filters AND together), then sorted; otherwise catalog order. */
export function visibleItems(items: readonly Item[], modification: Modification): Item[] {
  const filters = modification.filter ?? [];
  const kept = items.filter((item) => filters.every((f) => matches(item, f)));
  const { sort } = modification;
  return sort ? kept.sort((a, b) => compareItems(a, b, sort)) : kept;
}

/** `filter`: a new filter on a field replaces the one already on that field. */
export function withFilter(
  items: readonly Item[],
  modification: Modification,
  params: ToolParams<'filter'>,
): Modification {
  checkFilter(items, params);
  const filter: Filter = { field: params.field, operator: params.operator, value: params.value };
  const others = (modification.filter ?? []).filter((f) => f.field !== filter.field);
  return { ...modification, filter: [...others, filter] };
}

/** `sort`: replaces any earlier sort. */
export function withSort(items: readonly Item[], modification: Modification, params: ToolParams<'sort'>): Modification {
  fieldKindOrThrow(items, params.field, 'sort');
  return { ...modification, sort: { field: params.field, order: params.order } };
}

function requireVisible(visible: readonly Item[], ids: readonly string[], tool: string): void {
  const shown = new Set(visible.map((item) => item.id));
  const missing = ids.filter((id) => !shown.has(id));
  if (missing.length > 0) {
    throw new ProtocolError(
      'INVALID_PARAMS',
      `${tool}: ${missing.map((id) => `"${id}"`).join(', ')} ${missing.length > 1 ? 'are' : 'is'} not among the visible items`,
    );
  }
}

/** `highlight`: replaces the earlier highlight; only visible items may be marked. */
export function withHighlight(
  visible: readonly Item[],
  modification: Modification,
  params: ToolParams<'highlight'>,
): Modification {
  requireVisible(visible, params.itemIds, 'highlight');
  return { ...modification, highlight: { itemIds: [...new Set(params.itemIds)], style: params.style ?? 'emphasis' } };
}

/** `augment`: adds annotations; a new one for an item replaces that item's old one. */
export function withAugment(
  visible: readonly Item[],
  modification: Modification,
  params: ToolParams<'augment'>,
): Modification {
  requireVisible(
    visible,
    params.items.map((a) => a.itemId),
    'augment',
  );
  const incoming = new Map(params.items.map((a) => [a.itemId, a.value]));
  const kept = (modification.augment ?? []).filter((a) => !incoming.has(a.itemId));
  return { ...modification, augment: [...kept, ...[...incoming].map(([itemId, value]) => ({ itemId, value }))] };
}

/** `clearModification`: drops one kind, or everything by default. */
export function withoutModification(modification: Modification, params: ToolParams<'clearModification'>): Modification {
  const type = params.type ?? 'all';
  if (type === 'all') return {};
  const { [type]: _dropped, ...rest } = modification;
  return rest;
}

/** A deep copy that shares nothing with the engine's state. */
export function copyModification(m: Modification): Modification {
  const out: Modification = {};
  if (m.filter)
    out.filter = m.filter.map((f) => ({ ...f, value: Array.isArray(f.value) ? [...f.value] : f.value }) as Filter);
  if (m.sort) out.sort = { ...m.sort };
  if (m.highlight) out.highlight = { itemIds: [...m.highlight.itemIds], style: m.highlight.style };
  if (m.augment) out.augment = m.augment.map((a) => ({ ...a }));
  return out;
}
