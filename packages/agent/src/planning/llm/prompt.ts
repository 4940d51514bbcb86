import { type Item, isToolName } from '@usher/protocol';
import type { PerceivedContext, PerceivedTool } from '../../perception/perceive.ts';
import { describeModel } from '../../preferences/index.ts';
import type { PlannerInput } from '../deterministic.ts';
import type { NavigationPlan } from '../plan.ts';
import { type ChatMessage, clip, type ToolSpec } from './client.ts';
import { EXTERNAL_PREFIX } from './external.ts';

/*
 * What the LLM is told: a fixed system message with the rules of spec §6, and a compact user
 * message with the perceived state. The tools it is offered are the current toolSchema (each
 * with a required `reason`) plus `say`, the agent's chat message (and, beside them, any external
 * tools: see external.ts).
 */

/** The extra function that becomes an `agent.message`. */
export const SAY = 'say';

export interface PromptOptions {
  /** At most this many visible items are listed (default 40). */
  maxItems?: number;
  /** At most this many chat messages are listed (default 6). */
  maxChat?: number;
  /** Tell the model what the deterministic planner would do (default false). */
  hint?: boolean;
}

export const SYSTEM_PROMPT = [
  'You are the booking assistant of a movie-ticket booking study. You operate the booking page for a participant who sits beside you and can act or write in the chat at any moment.',
  'Rules:',
  '1. Choose exactly one action: call exactly one of the functions offered. They are the tools the page offers right now; never name any other.',
  '2. Every call has a "reason": one concrete sentence the participant can check (which wish it serves, which item and why), never a generic one.',
  '3. Prefer the smallest step that can be undone: one selection or one change at a time.',
  '4. Use item ids exactly as listed under "Visible items"; select only items that are not disabled.',
  "5. Never undo a choice the participant made themselves; book within the participant's wishes.",
  `6. When the wishes are ambiguous or no option fits, call "${SAY}" to ask the participant one short question instead of guessing; then wait for the answer.`,
].join('\n');

const NO_FIELDS = new Set(['id', 'value', 'isDisabled']);

function fieldText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => clip(String(v), 40)).join(', ')}]`;
  if (typeof value === 'string') return clip(value, 80);
  return JSON.stringify(value) ?? String(value);
}

function itemLine(item: Record<string, unknown> & { id: string; value: string; isDisabled?: boolean }): string {
  const fields = Object.entries(item)
    .filter(([key, value]) => !NO_FIELDS.has(key) && value !== null && value !== undefined && value !== '')
    .map(([key, value]) => `${key}=${fieldText(value)}`);
  const disabled = item.isDisabled ? ' [disabled]' : '';
  return `- ${item.id}: ${clip(item.value, 60)}${disabled}${fields.length > 0 ? ` | ${fields.join('; ')}` : ''}`;
}

/** `1-4, 7, 9-12` */
function ranges(numbers: number[]): string {
  const sorted = [...numbers].sort((a, b) => a - b);
  const parts: string[] = [];
  let start = sorted[0];
  let prev = start;
  for (const n of [...sorted.slice(1), Number.NaN]) {
    if (start === undefined || prev === undefined) break;
    if (n === prev + 1) {
      prev = n;
      continue;
    }
    parts.push(start === prev ? `${start}` : `${start}-${prev}`);
    start = n;
    prev = n;
  }
  return parts.join(', ');
}

/**
 * The seat map, one line per row (`- Row G (row 7 from the screen): standard 1-4, 15-18;
 * premium +3 5-8; taken 9-10`), or null when the seats are not `row`+`number` items.
 */
function seatRows(items: readonly Item[]): string[] | null {
  const rows = new Map<string, { index: number; groups: Map<string, number[]> }>();
  for (const item of items) {
    const { row, number, kind, rowIndex, priceSurcharge } = item;
    if (typeof row !== 'string' || typeof number !== 'number' || item.id !== `${row}${number}`) return null;
    const entry = rows.get(row) ?? { index: typeof rowIndex === 'number' ? rowIndex : rows.size, groups: new Map() };
    rows.set(row, entry);
    const surcharge = typeof priceSurcharge === 'number' && priceSurcharge > 0 ? ` +${priceSurcharge}` : '';
    const group = item.isDisabled || item.taken === true ? 'taken' : `${String(kind ?? 'seat')}${surcharge}`;
    entry.groups.set(group, [...(entry.groups.get(group) ?? []), number]);
  }
  return [...rows].map(
    ([row, { index, groups }]) =>
      `- Row ${row} (row ${index + 1} from the screen): ${[...groups].map(([group, numbers]) => `${group} ${ranges(numbers)}`).join('; ')}`,
  );
}

function todayOf(context: PerceivedContext): string | undefined {
  const today = context.uiSpec?.items.find((item) => item.isToday === true)?.date;
  return typeof today === 'string' ? today : undefined;
}

/** The user message: goal, stage, selection, visible items, wishes, recent chat. */
export function stateMessage(
  input: PlannerInput,
  suggestion: NavigationPlan | null,
  options: PromptOptions = {},
): string {
  const { context } = input;
  const spec = context.uiSpec;
  const maxItems = options.maxItems ?? 40;
  const maxChat = options.maxChat ?? 6;
  const lines: string[] = [`Goal: ${clip(input.goal, 300)}`];
  if (!spec) {
    lines.push('Stage: none (no page is loaded)');
  } else {
    lines.push(`Stage: ${spec.stage} — ${spec.title}${spec.description ? ` (${clip(spec.description, 120)})` : ''}`);
    const { selected, selectedList, quantities, booking } = spec.state;
    const selection: string[] = [];
    if (selected !== undefined) selection.push(`selected item: ${selected}`);
    if (selectedList && selectedList.length > 0) selection.push(`selected seats: ${selectedList.join(', ')}`);
    if (quantities && Object.keys(quantities).length > 0)
      selection.push(`ticket quantities: ${JSON.stringify(quantities)}`);
    if (booking && Object.keys(booking).length > 0)
      selection.push(`booking so far: ${clip(JSON.stringify(booking), 400)}`);
    lines.push(`Selection: ${selection.length > 0 ? selection.join('; ') : 'nothing chosen on this stage yet'}`);
    const seatMap = spec.stage === 'seat' ? seatRows(spec.visibleItems) : null;
    if (seatMap) {
      lines.push(
        `Visible seats (${spec.visibleItems.length}; a seat's id is its row and number, e.g. ${spec.visibleItems[0]?.id}):`,
      );
      lines.push(...seatMap);
    }
    const shown = seatMap ? [] : spec.visibleItems.slice(0, maxItems);
    const more = spec.visibleItems.length - shown.length;
    if (!seatMap) {
      lines.push(
        `Visible items (${spec.visibleItems.length}${more > 0 ? `, first ${shown.length} listed` : ''}):`,
        ...shown.map(itemLine),
      );
      if (more > 0) lines.push(`- … ${more} more not listed`);
    }
  }
  lines.push(`Participant's wishes: ${describeModel(input.model, todayOf(context))}`);
  if (input.participantChoices.size > 0) {
    lines.push(`Chosen by the participant (keep these): ${[...input.participantChoices].join(', ')}`);
  }
  const chat = context.messageHistoryTail.slice(-maxChat);
  lines.push(
    chat.length > 0 ? `Recent chat (oldest first):` : 'Recent chat: none',
    ...chat.map((m) => `${m.role}: ${clip(m.text, 200)}`),
  );
  const failures = input.memory.failuresOn(context.stage);
  if (failures > 0) lines.push(`Failed actions on this stage so far: ${failures}`);
  if (options.hint && suggestion && suggestion.nextAction.type === 'tool.call') {
    const a = suggestion.nextAction;
    lines.push(`A rule-based planner would call ${a.toolName} ${JSON.stringify(a.params)} because: ${a.reason}`);
  }
  lines.push('Call exactly one function now.');
  return lines.join('\n');
}

/**
 * The rule added when tools outside the page are offered: they inform the action, they are never it.
 * `rounds` is how many replies in a row may call them.
 */
export function externalToolsRule(rounds: number): string {
  return `7. Functions whose names start with "${EXTERNAL_PREFIX}" are tools outside the page (lookups, notes). You may call them before you act, in at most ${rounds} replies; their results come back to you. They never count as the action: then call exactly one page function or "${SAY}", alone.`;
}

/** The system and user messages; `externalRounds` adds the rule of external tools when they are offered. */
export function promptMessages(
  input: PlannerInput,
  suggestion: NavigationPlan | null,
  options: PromptOptions = {},
  externalRounds = 0,
): ChatMessage[] {
  const system = externalRounds > 0 ? `${SYSTEM_PROMPT}\n${externalToolsRule(externalRounds)}` : SYSTEM_PROMPT;
  return [
    { role: 'system', content: system },
    { role: 'user', content: stateMessage(input, suggestion, options) },
  ];
}

const REASON_PROPERTY = {
  type: 'string',
  minLength: 1,
  description: 'Why this action, concretely: which wish it serves and why this item or step.',
};

/** A tool's params JSON Schema with a required `reason` string added. */
export function withReason(params: Record<string, unknown>): Record<string, unknown> {
  const properties = (params.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(params.required) ? (params.required as unknown[]) : [];
  return {
    ...params,
    type: 'object',
    properties: { ...properties, reason: REASON_PROPERTY },
    required: [...required.filter((r) => r !== 'reason'), 'reason'],
  };
}

/** The tools of the current toolSchema whose params the planner can check (the protocol's ten). */
export function offeredTools(toolSchema: readonly PerceivedTool[]): PerceivedTool[] {
  return toolSchema.filter((tool) => isToolName(tool.name));
}

/** The functions offered to the model: the current tools, then `say`. */
export function toolSpecs(toolSchema: readonly PerceivedTool[]): ToolSpec[] {
  const tools: ToolSpec[] = offeredTools(toolSchema).map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: withReason(tool.params) },
  }));
  tools.push({
    type: 'function',
    function: {
      name: SAY,
      description:
        'Write one message to the participant in the chat (to ask a question when their wishes are ambiguous); you then wait for their answer.',
      parameters: withReason({
        type: 'object',
        properties: { text: { type: 'string', minLength: 1, description: 'The message, in plain words.' } },
        required: ['text'],
        additionalProperties: false,
      }),
    },
  });
  return tools;
}
