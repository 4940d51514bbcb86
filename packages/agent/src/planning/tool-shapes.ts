import type { PerceivedTool } from '../perception/perceive.ts';

/*
 * The planner follows the toolSchema it is given: `select` names its item under whatever key the
 * host's parameters declare (`itemId` in mvp-0.2's own tools), a host whose `select` takes a
 * list of ids (a seat map selecting several seats in one call) gets them all at once, and the
 * ticket count goes to whichever tool takes a ticket kind and a number (`setQuantity` in Usher's).
 */

type Schema = { properties?: Record<string, { type?: unknown }>; required?: unknown };

function properties(tool: PerceivedTool | undefined): Array<[string, { type?: unknown }]> {
  const schema = (tool?.params ?? {}) as Schema;
  return typeof schema.properties === 'object' && schema.properties !== null ? Object.entries(schema.properties) : [];
}

/** The key under which `select` takes a list of ids, if it takes one. */
export function listKeyOf(tool: PerceivedTool | undefined): string | undefined {
  return properties(tool).find(([, p]) => p?.type === 'array')?.[0];
}

/** The key under which `select` takes one id: `itemId` when declared, else its (first required) text parameter. */
export function idKeyOf(tool: PerceivedTool | undefined): string {
  const texts = properties(tool).filter(([, p]) => p?.type === 'string' || p?.type === undefined);
  if (texts.some(([k]) => k === 'itemId') || texts.length === 0) return 'itemId';
  const schema = (tool?.params ?? {}) as Schema;
  const required = Array.isArray(schema.required) ? schema.required : [];
  return (
    (texts.find(([k]) => required.includes(k)) ?? texts.find(([k]) => /id$/i.test(k)) ?? texts[0])?.[0] ?? 'itemId'
  );
}

/**
 * The params of a `select` of `ids`: the whole list under the list key when the tool takes one
 * (and has no single-id key, or more than one id is selected), else the first id under its id key.
 */
export function selectParams(tool: PerceivedTool | undefined, ids: readonly string[]): Record<string, unknown> {
  const listKey = listKeyOf(tool);
  const single = properties(tool).some(([k, p]) => k === idKeyOf(tool) && p?.type === 'string');
  if (listKey && (ids.length > 1 || !single)) return { [listKey]: [...ids] };
  return { [idKeyOf(tool)]: ids[0] };
}

/** The ids a `select` call names, whatever its key: `itemId`, a list, or a single text value. */
export function idsOfCall(params: Record<string, unknown>): string[] {
  if (typeof params.itemId === 'string') return [params.itemId];
  for (const value of Object.values(params)) {
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  }
  const one = Object.values(params).find((v) => typeof v === 'string');
  return typeof one === 'string' ? [one] : [];
}

const STEPS = new Set(['select', 'next', 'prev']);
const isNumber = (p: { type?: unknown }) => p?.type === 'number' || p?.type === 'integer';

/**
 * The call that sets how many tickets of one kind to buy: Usher's `setQuantity {typeId, quantity}`
 * when offered, else the tool that acts in the stage (not a page tool, not select/next/prev) whose
 * parameters are one number (how many) and a text naming the kind (the one whose key ends in id,
 * code, type or kind, else the first required): `{fareCode, count}`, `{ticketType, qty}`. Undefined
 * when no tool on offer has that shape.
 */
export function quantityCall(
  tools: readonly PerceivedTool[],
  typeId: string,
  quantity: number,
): { toolName: string; params: Record<string, unknown> } | undefined {
  if (tools.some((t) => t.name === 'setQuantity')) return { toolName: 'setQuantity', params: { typeId, quantity } };
  for (const tool of tools) {
    if (tool.category === 'modification' || STEPS.has(tool.name)) continue;
    const fields = properties(tool);
    const numbers = fields.filter(([, p]) => isNumber(p));
    const texts = fields.filter(([, p]) => p?.type === 'string');
    if (numbers.length !== 1 || texts.length === 0) continue;
    const schema = (tool.params ?? {}) as Schema;
    const required = Array.isArray(schema.required) ? schema.required : [];
    const kind =
      texts.find(([k]) => /(id|code|type|kind)$/i.test(k)) ?? texts.find(([k]) => required.includes(k)) ?? texts[0];
    if (!kind || !numbers[0]) continue;
    return { toolName: tool.name, params: { [kind[0]]: typeId, [numbers[0][0]]: quantity } };
  }
  return undefined;
}
