import { isToolName, TOOL_PARAMS } from '@usher/protocol';
import { z } from 'zod';
import type { PerceivedContext } from '../../perception/perceive.ts';
import { unsafeBecause } from '../../policies/safety.ts';
import type { PlannedAction } from '../plan.ts';
import { idsOfCall } from '../tool-shapes.ts';
import type { AssistantMessage } from './client.ts';
import { offeredTools, SAY } from './prompt.ts';

/*
 * Strict validation of the model's proposal (spec §9 phase 3): exactly one call, of a tool the
 * page offers now (or `say`), with params the protocol accepts, a concrete reason, and item ids
 * that are on screen. An invalid proposal is never sent.
 */

export type Validation = { ok: true; action: PlannedAction } | { ok: false; error: string };

const SayParams = z.strictObject({ text: z.string().trim().min(1) });

const invalid = (error: string): Validation => ({ ok: false, error });

/** The planned action the model's message proposes, or why it cannot be used. */
export function validateProposal(
  message: AssistantMessage,
  context: PerceivedContext,
  participantChoices: ReadonlySet<string>,
): Validation {
  const calls = message.tool_calls ?? [];
  if (calls.length === 0) return invalid('You wrote text but called no function. Call exactly one function.');
  if (calls.length > 1) {
    return invalid(
      `You called ${calls.length} functions (${calls.map((c) => c.function.name).join(', ')}). Call exactly one.`,
    );
  }
  const call = calls[0] as (typeof calls)[number];
  const name = call.function.name;
  const available = [...offeredTools(context.toolSchema).map((t) => t.name), SAY];
  if (!available.includes(name)) {
    return invalid(`"${name}" is not available now. The functions available now are: ${available.join(', ')}.`);
  }
  let args: unknown;
  try {
    args = JSON.parse(call.function.arguments || '{}');
  } catch {
    return invalid(`The arguments of ${name} are not valid JSON: ${call.function.arguments.slice(0, 200)}`);
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return invalid(`The arguments of ${name} must be a JSON object.`);
  }
  const { reason, ...params } = args as Record<string, unknown>;
  if (typeof reason !== 'string' || reason.trim() === '') {
    return invalid(`${name} needs a non-empty "reason": say concretely why this action.`);
  }
  if (name === SAY) {
    const parsed = SayParams.safeParse(params);
    if (!parsed.success) return invalid(`Invalid arguments for ${SAY}: ${z.prettifyError(parsed.error)}`);
    return { ok: true, action: { type: 'agent.message', text: parsed.data.text.trim(), reason: reason.trim() } };
  }
  if (!isToolName(name)) return invalid(`"${name}" is not a tool the agent can use.`);
  const hostShaped = name === 'select' ? hostSelectError(params, context) : undefined;
  if (hostShaped) return invalid(hostShaped);
  const parsed = hostShaped === null ? { success: true as const, data: params } : TOOL_PARAMS[name].safeParse(params);
  if (!parsed.success) return invalid(`Invalid params for ${name}: ${z.prettifyError(parsed.error)}`);
  const action: PlannedAction = {
    type: 'tool.call',
    toolName: name,
    params: parsed.data as Record<string, unknown>,
    reason: reason.trim(),
  };
  const itemError = checkItems(action, context, participantChoices);
  return itemError ? invalid(itemError) : { ok: true, action };
}

/**
 * A `select` in the shape the host's own toolSchema declares (`{id}`, `{ids: [...]}`) rather than
 * the protocol's `{itemId}`: null when its keys are the declared ones and name at least one id,
 * else why not; undefined when the host's select is the protocol's own (checked by its schema).
 */
function hostSelectError(params: Record<string, unknown>, context: PerceivedContext): string | null | undefined {
  const tool = context.toolSchema.find((t) => t.name === 'select');
  const declared = Object.keys((tool?.params as { properties?: object } | undefined)?.properties ?? {});
  if (declared.length === 0 || declared.includes('itemId')) return undefined;
  const stray = Object.keys(params).filter((key) => !declared.includes(key));
  if (stray.length > 0) return `select takes ${declared.join(', ')} here, not ${stray.join(', ')}.`;
  return idsOfCall(params).length > 0 ? null : `select needs the id of an item from "Visible items".`;
}

/** Item ids must be visible (and, to select, enabled); the participant's choices stand. */
function checkItems(
  action: Extract<PlannedAction, { type: 'tool.call' }>,
  context: PerceivedContext,
  participantChoices: ReadonlySet<string>,
): string | null {
  const visible = new Map((context.uiSpec?.visibleItems ?? []).map((item) => [item.id, item]));
  const p = action.params;
  const ids =
    action.toolName === 'select'
      ? idsOfCall(p)
      : action.toolName === 'highlight'
        ? (p.itemIds as string[])
        : action.toolName === 'augment'
          ? (p.items as { itemId: string }[]).map((i) => i.itemId)
          : [];
  const missing = ids.filter((id) => !visible.has(id));
  if (missing.length > 0) {
    return `Item ${missing.map((id) => `"${id}"`).join(', ')} is not visible now. Use an id from "Visible items".`;
  }
  if (action.toolName === 'select') {
    const disabled = ids.find((id) => visible.get(id)?.isDisabled);
    if (disabled) return `Item "${disabled}" is disabled and cannot be selected.`;
    const id = ids[0];
    const selected = context.uiSpec?.state.selected;
    if (context.stage !== 'seat' && selected && selected !== id && participantChoices.has(selected)) {
      return `The participant chose "${selected}" themselves; keep it (do not select another item).`;
    }
  }
  const unsafe = unsafeBecause(action, context, participantChoices);
  return unsafe ? `Not allowed: ${unsafe}.` : null;
}
