import { type MessageOf, StageSchema } from '@usher/protocol';
import type { RelayCore } from './core.ts';
import type { Room } from './room.ts';

/*
 * The server's side of "the agent asks before submitting" (a study condition's
 * `confirmBeforeSubmit`; docs/security.md, "What the server guarantees a study"): in such a room
 * an agent's `next` that would submit the booking goes to the page only when the participant's
 * last words since the booking on screen last changed were a yes (`ConfirmationTracker`, the
 * reading the agent itself uses). Whether a `next` submits depends on the stage it lands on, so
 * every `next` names the stage it was planned for (`params.expect`, which Usher's hosts check):
 * one that names none is given the stage the relay last saw, and a page that has moved on since
 * refuses it rather than submit.
 */

/** What the relay does with an agent's tool call in a room that asks before submitting. */
export type Guarded = { refused: string } | { payloadJson: string };

export function guardSubmit(
  core: RelayCore,
  room: Room,
  message: MessageOf<'tool.call'>,
  payloadJson: string,
): Guarded {
  const { toolName, params } = message.payload;
  if (toolName !== 'next' || !asksBeforeSubmit(core, room)) return { payloadJson };
  const named = (params as { expect?: { stage?: unknown } }).expect;
  const seen = StageSchema.safeParse(room.stage);
  const stage = named === undefined ? (seen.success ? seen.data : null) : named?.stage;
  if (stage === 'confirm' && !room.confirmation.confirmed) {
    return {
      refused:
        'the booking was not submitted: in this study condition the participant confirms it first, and they have not said yes since it last changed. Ask them in the chat and wait for their yes (or their own click on Confirm booking)',
    };
  }
  if (named !== undefined || stage === null) return { payloadJson };
  // Planned for the stage last seen: a page that has moved on refuses it rather than submit.
  const expect = { stage };
  return { payloadJson: JSON.stringify({ ...message.payload, params: { ...params, expect } }) };
}

function asksBeforeSubmit(core: RelayCore, room: Room): boolean {
  const hooks = core.hooks;
  if (!hooks.asksBeforeSubmit) return false;
  let asks = true;
  // A fault in the listener is contained and reported; the call is then guarded all the same.
  core.guard('submit guard', () => {
    asks = hooks.asksBeforeSubmit?.(room.id) ?? false;
  });
  return asks;
}
