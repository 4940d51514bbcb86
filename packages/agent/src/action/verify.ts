import { STAGES, type Stage } from '@usher/protocol';
import type { PerceivedContext } from '../perception/perceive.ts';
import type { PlannedAction } from '../planning/plan.ts';

/** Where a stage leads on `next` / `prev`; `null` after confirm means the booking was submitted. */
export function stageAfter(stage: Stage, toolName: 'next' | 'prev'): Stage | null {
  const index = STAGES.indexOf(stage) + (toolName === 'next' ? 1 : -1);
  return index < 0 ? stage : (STAGES[index] ?? null);
}

/**
 * Compares the state an action should lead to with the state observed after it (spec phase 2:
 * expected versus observed transitions). Returns what differs, or null when they agree.
 */
export function mismatch(action: PlannedAction, before: PerceivedContext, after: PerceivedContext): string | null {
  if (action.type !== 'tool.call' || !before.stage) return null;
  const { toolName, params } = action;
  const spec = after.uiSpec;
  if (toolName === 'next' || toolName === 'prev') {
    const expected = stageAfter(before.stage, toolName);
    return after.stage === expected
      ? null
      : `expected the ${expected ?? 'submitted'} stage after ${toolName}, saw ${after.stage ?? 'no stage'}`;
  }
  if (after.stage !== before.stage)
    return `${toolName} was not expected to leave the ${before.stage} stage (now ${after.stage ?? 'none'})`;
  if (toolName === 'select' && spec) {
    const itemId = String(params.itemId);
    if (before.stage === 'seat') {
      const was = before.uiSpec?.state.selectedList?.includes(itemId) ?? false;
      const is = spec.state.selectedList?.includes(itemId) ?? false;
      return was !== is ? null : `seat ${itemId} did not toggle`;
    }
    return spec.state.selected === itemId
      ? null
      : `expected ${itemId} to be selected, saw ${spec.state.selected ?? 'nothing'}`;
  }
  if (toolName === 'setQuantity' && spec) {
    const seen = spec.state.quantities?.[String(params.typeId)] ?? 0;
    return seen === params.quantity
      ? null
      : `expected ${String(params.quantity)} × ${String(params.typeId)}, saw ${seen}`;
  }
  return null;
}
