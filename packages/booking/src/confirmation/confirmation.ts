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

/** How many of the agent's latest proposals a tracker remembers the tool of. */
const KEPT_PROPOSALS = 32;

/**
 * Follows one room's frames and says whether the participant has confirmed the booking on screen:
 * their last words since the booking last changed read as a plain yes. (Their own click on the
 * confirm stage's button submits the booking themselves.)
 */
export class ConfirmationTracker {
  /** The participant's last words since the booking last changed, or null. */
  private lastWords: string | null = null;
  /** The participant approved the agent's proposed `next` since the booking last changed (step approval). */
  private approvedNext = false;
  /** The tool of each of the agent's latest proposals, by id (bounded: the oldest are forgotten). */
  private readonly proposals = new Map<string, string>();

  /** The agent proposed a step (`agent.proposal`), to be approved or rejected by the participant. */
  proposed(proposalId: string, tool: string): void {
    this.proposals.delete(proposalId);
    this.proposals.set(proposalId, tool);
    if (this.proposals.size > KEPT_PROPOSALS) this.proposals.delete(this.proposals.keys().next().value as string);
  }

  /**
   * The participant decided on a proposal (`participant.proposal`): approving the agent's `next`
   * agrees to it, and on the confirm stage that is the submit, so it confirms the booking as a yes
   * would; a rejection takes back nothing said before.
   */
  decided(proposalId: string, decision: string): void {
    if (decision === 'approve' && this.proposals.get(proposalId) === 'next') this.approvedNext = true;
  }

  /** The host's state changed (`state.updated`'s `source` and its `action.toolName`, if any). */
  stateChanged(source: string | undefined, toolName: string | undefined): void {
    if (changesBooking(source, toolName)) {
      this.lastWords = null;
      this.approvedNext = false;
    }
  }

  /** The participant wrote in the chat (`user.message`). */
  participantSaid(text: string): void {
    this.lastWords = text;
  }

  /** The participant's last words since the booking last changed agree to submit it. */
  get confirmed(): boolean {
    return this.approvedNext || (this.lastWords !== null && isPlainYes(this.lastWords));
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
    const proposal = (record.payload ?? {}) as { proposalId?: unknown; tool?: unknown; decision?: unknown };
    if (record.type === 'agent.proposal' && record.direction !== 'out') {
      if (typeof proposal.proposalId === 'string' && typeof proposal.tool === 'string') {
        tracker.proposed(proposal.proposalId, proposal.tool);
      }
      return;
    }
    if (record.direction !== undefined && record.direction !== 'out') return;
    if (record.type === 'participant.proposal' && typeof proposal.proposalId === 'string') {
      tracker.decided(proposal.proposalId, String(proposal.decision));
      return;
    }
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
