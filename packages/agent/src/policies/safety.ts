import { offers, type PerceivedContext } from '../perception/perceive.ts';
import type { PlannedAction } from '../planning/plan.ts';
import { idsOfCall } from '../planning/tool-shapes.ts';

/**
 * Checks an action against what is perceived now, before it is sent (spec §10: no tool missing
 * from the current toolSchema, every reason non-empty; and the participant's choices are never
 * undone). Returns why it is unsafe, or null.
 */
export function unsafeBecause(
  action: PlannedAction,
  context: PerceivedContext,
  participantSeats: ReadonlySet<string>,
): string | null {
  if (action.reason.trim() === '') return 'the action has no reason';
  if (action.type !== 'tool.call') return null;
  if (!offers(context, action.toolName)) return `"${action.toolName}" is not in the current toolSchema`;
  if (action.toolName !== 'select') {
    // A tool that sets the whole seat selection from a list keeps every seat the participant chose.
    const ids = /select/i.test(action.toolName) && context.stage === 'seat' ? idsOfCall(action.params) : [];
    const dropped = ids.length > 0 ? [...participantSeats].filter((id) => !ids.includes(id)) : [];
    return dropped.length > 0 ? `seat ${dropped.join(', ')} was chosen by the participant` : null;
  }
  for (const itemId of idsOfCall(action.params)) {
    const item = context.uiSpec?.visibleItems.find((i) => i.id === itemId);
    if (!item) return `"${itemId}" is not visible`;
    if (item.isDisabled) return `"${itemId}" is disabled`;
    // On the seat stage select toggles: selecting a seat the participant chose would drop it.
    if (context.stage === 'seat' && participantSeats.has(itemId)) return `seat ${itemId} was chosen by the participant`;
  }
  return null;
}
