import { z } from 'zod';

const ProposalId = z.string().min(1).max(128);

/**
 * `agent.proposal` (an extension, docs/protocols.md "Step approval"): in a study condition whose
 * guard is `each-step`, the step the agent would take next, sent before it is taken: the tool and
 * its arguments as the `tool.call` would carry them, and why, in one line. The page shows it with
 * Approve and Reject and answers with {@link ParticipantProposalPayload}; the agent sends the
 * `tool.call` only once approved. No reply; hosts that do not know it ignore it; the relay logs and
 * forwards it like `agent.message`.
 */
export const AgentProposalPayload = z.object({
  /** Unique among the agent's proposals in the room; the decision names it. */
  proposalId: ProposalId,
  /** The tool the agent would call (a name of the current toolSchema). */
  tool: z.string().min(1).max(64),
  /** The tool call's params, as they would be sent. */
  args: z.record(z.string(), z.unknown()).default({}),
  /** Why, in the participant's terms: shown beside the step. */
  reason: z.string().max(2000).trim().min(1, 'a proposal needs a non-empty reason'),
});

/**
 * `participant.proposal` (an extension, host → agent): the participant's decision on a proposal,
 * from the page's Approve or Reject, or from their answer typed in the chat. A rejection may carry
 * the participant's words (`comment`), which the agent reads as a correction and plans again from.
 */
export const ParticipantProposalPayload = z.object({
  proposalId: ProposalId,
  decision: z.enum(['approve', 'reject']),
  comment: z.string().trim().min(1).max(4000).optional(),
});
