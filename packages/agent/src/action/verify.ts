import { STAGES, type Stage } from '@usher/protocol';
import type { PerceivedContext } from '../perception/perceive.ts';
import type { PlannedAction } from '../planning/plan.ts';
import { idsOfCall } from '../planning/tool-shapes.ts';

/** Where a stage leads on `next` / `prev` in Usher's flow; `null` after confirm means the booking was submitted. */
export function stageAfter(stage: Stage, toolName: 'next' | 'prev'): Stage | null {
  const index = STAGES.indexOf(stage) + (toolName === 'next' ? 1 : -1);
  return index < 0 ? stage : (STAGES[index] ?? null);
}

/**
 * Whether `after` is where `next` / `prev` may lead from `stage`: any later (earlier) stage, since
 * a host's flow may leave stages out (no ticket stage); after confirm, `next` submits (no stage).
 */
function leadsTo(stage: Stage, toolName: 'next' | 'prev', after: Stage | null): boolean {
  if (after === null) return toolName === 'next' && stage === 'confirm';
  const step = STAGES.indexOf(after) - STAGES.indexOf(stage);
  return toolName === 'next' ? step > 0 : step < 0 || (step === 0 && STAGES.indexOf(stage) === 0);
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
    // A host that stays on its confirm page, marked complete, has booked.
    const booked = toolName === 'next' && before.stage === 'confirm' && after.submitted && !before.submitted;
    return booked || leadsTo(before.stage, toolName, after.stage)
      ? null
      : `expected the ${expected ?? 'submitted'} stage after ${toolName}, saw ${after.stage ?? 'no stage'}`;
  }
  if (after.stage !== before.stage)
    return `${toolName} was not expected to leave the ${before.stage} stage (now ${after.stage ?? 'none'})`;
  if (toolName === 'select' && spec) {
    const ids = idsOfCall(params);
    const itemId = String(ids[0]);
    if (before.stage === 'seat') {
      const stuck = ids.filter(
        (id) =>
          (before.uiSpec?.state.selectedList?.includes(id) ?? false) ===
          (spec.state.selectedList?.includes(id) ?? false),
      );
      return stuck.length === 0 ? null : `seat ${stuck.join(', ')} did not toggle`;
    }
    return spec.state.selected === itemId
      ? null
      : `expected ${itemId} to be selected, saw ${spec.state.selected ?? 'nothing'}`;
  }
  if (toolName === 'clearSelection' && spec) {
    const left = spec.state.selected ?? spec.state.selectedList?.[0];
    return left === undefined ? null : `expected nothing chosen on the ${before.stage} stage, saw ${left}`;
  }
  if (toolName === 'setQuantity' && spec) {
    const seen = spec.state.quantities?.[String(params.typeId)] ?? 0;
    return seen === params.quantity
      ? null
      : `expected ${String(params.quantity)} × ${String(params.typeId)}, saw ${seen}`;
  }
  return null;
}
