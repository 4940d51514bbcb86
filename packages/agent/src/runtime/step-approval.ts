import { describeStep, proposalLine, readDecision } from '@usher/booking';
import type { MessageOf } from '@usher/protocol';
import type { PerceivedContext } from '../perception/perceive.ts';
import type { PlannedAction } from '../planning/plan.ts';

/*
 * Step approval (a study condition's `guard: each-step`): before each tool call the agent says what
 * it will do and why, in one line in the chat and as an `agent.proposal` the page shows with
 * Approve and Reject, and waits for the participant's decision (`participant.proposal`, or a yes or
 * a no typed in the chat). A rejection is a correction: the agent plans again without that step.
 */

export type StepDecision =
  | { kind: 'approve' }
  | { kind: 'reject'; comment?: string }
  /** The participant acted on the page or wrote something else meanwhile: plan again from that. */
  | { kind: 'withdrawn' };

/** What asking for approval needs from the agent. */
export interface ApprovalPort {
  propose(payload: { proposalId: string; tool: string; args: Record<string, unknown>; reason: string }): void;
  say(text: string): void;
  /** Tells the page the agent is not acting while it waits for the decision. */
  idle(): void;
  /** {@link StepApproval.asking} has just changed. */
  changed(): void;
}

type ToolCall = Extract<PlannedAction, { type: 'tool.call' }>;

/** The proposal open in the chat and on the page, if any, and the steps the participant rejected. */
export class StepApproval {
  private seq = 0;
  /** Unique to this agent, so its proposal ids differ from an earlier agent's in the same room. */
  private readonly prefix = globalThis.crypto.randomUUID().slice(0, 8);
  private open: { proposalId: string; decide: (decision: StepDecision) => void } | null = null;
  /** The last step rejected, and on which page (the state's fingerprint), to say so rather than propose it again. */
  private rejected: { step: string; page: string } | null = null;

  constructor(private readonly port: ApprovalPort) {}

  /** A proposal waits for the participant's decision. */
  get asking(): boolean {
    return this.open !== null;
  }

  /** Whether this very step was rejected on this very page (`page`: the state's fingerprint). */
  rejectedHere(action: ToolCall, page: string): boolean {
    return this.rejected?.step === stepKey(action) && this.rejected.page === page;
  }

  /** Proposes `action` and waits for the participant's decision (or the proposal's withdrawal). */
  propose(action: ToolCall, context: PerceivedContext, page: string): Promise<StepDecision> {
    this.withdraw();
    const proposalId = `${this.prefix}-${++this.seq}`;
    const step = describeStep(action.toolName, action.params, context.uiSpec);
    this.port.propose({ proposalId, tool: action.toolName, args: action.params, reason: action.reason });
    this.port.say(proposalLine(step, action.reason));
    this.port.idle();
    return new Promise((resolve) => {
      this.open = {
        proposalId,
        decide: (decision) => {
          this.open = null;
          if (decision.kind === 'reject') this.rejected = { step: stepKey(action), page };
          this.port.changed();
          resolve(decision);
        },
      };
      this.port.changed();
    });
  }

  /** The page's decision (`participant.proposal`); false when it is not on the proposal open. */
  decided(message: MessageOf<'participant.proposal'>): boolean {
    const { proposalId, decision, comment } = message.payload;
    if (this.open?.proposalId !== proposalId) return false;
    this.open.decide(decision === 'approve' ? { kind: 'approve' } : { kind: 'reject', ...(comment && { comment }) });
    return true;
  }

  /**
   * The participant wrote while a proposal is open: a yes or a no decides it (true); other words
   * withdraw it (false: the agent reads them as wishes and plans again).
   */
  heard(text: string): boolean {
    if (!this.open) return false;
    const decision = readDecision(text);
    if (decision === null) {
      this.withdraw();
      return false;
    }
    this.open.decide(decision === 'approve' ? { kind: 'approve' } : { kind: 'reject', comment: text.trim() });
    return true;
  }

  /** The proposal open, if any, is withdrawn: the participant acted, or the agent stops. */
  withdraw(): void {
    this.open?.decide({ kind: 'withdrawn' });
  }

  /** New wishes: a step rejected under the old ones may be right now. */
  forgetRejected(): void {
    this.rejected = null;
  }
}

function stepKey(action: ToolCall): string {
  return JSON.stringify([action.toolName, action.params]);
}
