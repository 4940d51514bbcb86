import { isToolName, toolCategory } from '@usher/protocol';

/*
 * Whether the participant confirmed the booking on screen: read by the agent before it submits,
 * by the relay before it lets an agent's submit through (where the condition asks before
 * submitting), and by the export for every submit. One reading, so the three agree.
 */

/** A reply that agrees to submit, and says nothing else that needs reading. */
export function isPlainYes(text: string): boolean {
  const t = text.trim().toLowerCase();
  if (/\b(no|not|don'?t|wait|but|change|instead|actually)\b/.test(t)) return false;
  return /^(y|yes|yeah|yep|yup|sure|ok|okay|go ahead|please do|do it|book it|confirm|sounds good|perfect|great)\b/.test(
    t,
  );
}

/**
 * Whether a host's state change changed the booking on screen: an interaction tool other than the
 * chat's (a choice, a quantity, a stage), or the host's own state (a reset, a page restored).
 * Page tuning (filter, sort, highlight, augment) and chat messages leave the booking as it was.
 */
export function changesBooking(source: string | undefined, toolName: string | undefined): boolean {
  if (source === 'host') return true;
  if (toolName === undefined || toolName === 'postMessage') return false;
  // A tool Usher does not know may have changed anything.
  return isToolName(toolName) ? toolCategory(toolName) === 'interaction' : true;
}

/**
 * Follows one room's frames and says whether the participant has confirmed the booking on screen:
 * their last words since the booking last changed read as a plain yes. (Their own click on the
 * confirm stage's button submits the booking themselves.)
 */
export class ConfirmationTracker {
  /** The participant's last words since the booking last changed, or null. */
  private lastWords: string | null = null;

  /** The host's state changed (`state.updated`'s `source` and its `action.toolName`, if any). */
  stateChanged(source: string | undefined, toolName: string | undefined): void {
    if (changesBooking(source, toolName)) this.lastWords = null;
  }

  /** The participant wrote in the chat (`user.message`). */
  participantSaid(text: string): void {
    this.lastWords = text;
  }

  /** The participant's last words since the booking last changed agree to submit it. */
  get confirmed(): boolean {
    return this.lastWords !== null && isPlainYes(this.lastWords);
  }
}

/** A study-log record, as far as confirmations go. */
export interface ConfirmationRecord {
  type: string;
  direction?: string;
  payload: unknown;
}

/**
 * The booking's submits by the agent's side (a `state.updated` from `source: agent` that leaves
 * the confirm stage for no stage: the engine's submit) that came with no confirmation from the
 * participant since the booking last changed: their positions in `records`, a session's log in
 * order. The participant's own submit is its own confirmation.
 */
export function unconfirmedSubmits(records: readonly ConfirmationRecord[]): number[] {
  const tracker = new ConfirmationTracker();
  const found: number[] = [];
  let stage: unknown = null;
  records.forEach((record, i) => {
    if (record.direction !== undefined && record.direction !== 'out') return;
    const payload = (record.payload ?? {}) as {
      text?: unknown;
      source?: string;
      uiSpec?: { stage?: unknown } | null;
      action?: { toolName?: unknown };
    };
    if (record.type === 'user.message' && typeof payload.text === 'string') tracker.participantSaid(payload.text);
    if (record.type !== 'state.updated') return;
    const now = payload.uiSpec?.stage ?? null;
    if (stage === 'confirm' && now === null && payload.source === 'agent' && !tracker.confirmed) found.push(i);
    const tool = payload.action?.toolName;
    tracker.stateChanged(payload.source, typeof tool === 'string' ? tool : undefined);
    stage = now;
  });
  return found;
}
