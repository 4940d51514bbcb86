import type { MessageOf } from '@usher/protocol';
import { fingerprintOf } from '../memory/fingerprint.ts';
import type { PerceivedContext } from '../perception/perceive.ts';
import type { ActionOutcome, PlannedAction } from '../planning/plan.ts';
import { type RelayClient, RelayRequestError } from '../runtime/relay-client.ts';
import { refusedAsStale, withExpect } from './expect.ts';
import { mismatch } from './verify.ts';

/** What the executor needs from the runtime: the relay, the latest context, and a way to wait for it to move. */
export interface ExecutionPort {
  relay: RelayClient;
  context(): PerceivedContext;
  /** Resolves with the first context that passes `test`, or null after `timeoutMs`. */
  waitFor(test: (context: PerceivedContext) => boolean, timeoutMs: number): Promise<PerceivedContext | null>;
  /** Applies a snapshot (a resync). */
  resync(snapshot: MessageOf<'snapshot.state'>): PerceivedContext;
}

/**
 * Sends one planned action and verifies what came of it (spec §2.3, §5): a tool call waits for
 * its result, then for the `state.updated` that follows; when none comes in time it resyncs with
 * `snapshot.get` (TIMEOUT_STATE_UPDATE), and a state other than the expected one is DESYNC_DETECTED.
 * A tool call names the state it was planned on (`planned`, by default the one seen now) to a host
 * that declares `expect`; refused as planned on a page that moved on (PAGE_MOVED), it waits for
 * the state that moved it before the plan is made again.
 */
export async function execute(
  action: PlannedAction,
  port: ExecutionPort,
  stateTimeoutMs: number,
  planned: PerceivedContext = port.context(),
): Promise<ActionOutcome> {
  try {
    switch (action.type) {
      case 'wait':
        return { ok: true, replan: false };
      case 'agent.message':
        port.relay.say(action.text);
        return { ok: true, replan: false };
      case 'snapshot.get':
        port.resync(await port.relay.request('snapshot.get', {}));
        return { ok: true, replan: true };
      case 'session.end':
        await port.relay.request('session.end', { reason: action.reason });
        return { ok: true, replan: false };
      case 'tool.call': {
        const before = port.context();
        const params = withExpect(action.toolName, action.params, planned);
        try {
          await port.relay.request('tool.call', { toolName: action.toolName, params, reason: action.reason });
        } catch (err) {
          if (!(err instanceof RelayRequestError) || !refusedAsStale(err.message)) throw err;
          return await pageMoved(port, before, stateTimeoutMs, err.message);
        }
        const sent = { toolName: action.toolName, params };
        // The update this call caused names it; the participant acting meanwhile counts too (the plan is
        // redone). A host that names no call in its updates (the `action` tag is Usher's extension): the
        // next agent-caused update that is not only the agent's own chat message is this call's.
        // A host that sends every update as its own (source `host`, the prototype's): the first update
        // since the call that shows what the call would do is its result (after `next` or `prev` an
        // update may still show the old stage; the new stage follows).
        const caused = (context: PerceivedContext) =>
          context.revision > before.revision &&
          (context.source === 'user' ||
            (context.source === 'agent' &&
              (sameCall(context.lastAction, sent) ||
                (!context.tagsActions && context.lastAction === null && !context.chatOnly))) ||
            (context.source === 'host' && !context.tagsActions && showsCall(action, before, context)));
        let after = await port.waitFor(caused, stateTimeoutMs);
        if (!after) {
          after = port.resync(await port.relay.request('snapshot.get', {}));
          const wrong = mismatch(action, before, after);
          return wrong
            ? { ok: false, code: 'DESYNC_DETECTED', replan: true, detail: wrong }
            : { ok: true, code: 'TIMEOUT_STATE_UPDATE', replan: false, detail: 'resynced with snapshot.get' };
        }
        const wrong = mismatch(action, before, after);
        return wrong
          ? { ok: false, code: 'DESYNC_DETECTED', replan: true, detail: wrong }
          : { ok: true, replan: false };
      }
    }
  } catch (err) {
    if (err instanceof RelayRequestError) return { ok: false, code: err.code, replan: true, detail: err.message };
    throw err;
  }
}

/**
 * The host refused a call planned on a page that has moved on (the participant's click, applied
 * first): waits for the state that moved it, so the plan is made again on it, or resyncs.
 */
async function pageMoved(
  port: ExecutionPort,
  before: PerceivedContext,
  stateTimeoutMs: number,
  detail: string,
): Promise<ActionOutcome> {
  const moved = await port.waitFor(
    (context) => context.stage !== before.stage || context.uiSpec?.meta?.revision !== before.uiSpec?.meta?.revision,
    stateTimeoutMs,
  );
  if (!moved) port.resync(await port.relay.request('snapshot.get', {}));
  return { ok: true, code: 'PAGE_MOVED', replan: true, detail };
}

/** Whether `after` shows the change `action` makes from `before`: a stage reached, an item selected, a view changed. */
function showsCall(
  action: { toolName: string; params: Record<string, unknown> },
  before: PerceivedContext,
  after: PerceivedContext,
): boolean {
  if (mismatch({ type: 'tool.call', reason: '', ...action }, before, after) !== null) return false;
  if (action.toolName === 'next' || action.toolName === 'prev' || action.toolName === 'select') return true;
  return fingerprintOf(after.uiSpec) !== fingerprintOf(before.uiSpec) || viewOf(after) !== viewOf(before);
}

/** What a page modification changes: the modification itself and the items shown. */
const viewOf = (context: PerceivedContext) =>
  JSON.stringify([context.uiSpec?.modification ?? null, context.uiSpec?.visibleItems.map((i) => i.id) ?? []]);

function sameCall(
  seen: PerceivedContext['lastAction'],
  action: { toolName: string; params: Record<string, unknown> },
): boolean {
  return seen?.toolName === action.toolName && JSON.stringify(seen.params) === JSON.stringify(action.params);
}
