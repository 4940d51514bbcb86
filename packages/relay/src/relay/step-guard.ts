import type { MessageOf } from '@usher/protocol';
import type { RelayCore } from './core.ts';
import type { Room } from './room.ts';

/*
 * The server's side of "the agent proposes each step" (a study condition's `guard: each-step`;
 * docs/security.md, "What the server guarantees a study"): in such a room an agent's tool call goes
 * to the page only when the participant approved a proposal (`agent.proposal`) of that very call,
 * the same tool with the same params (`expect`, which names the page it was planned on, aside), and
 * each approval lets one call through.
 */

/** How many of the agent's latest proposals a room remembers (the oldest are forgotten first). */
const KEPT_PROPOSALS = 32;

interface Proposal {
  tool: string;
  /** The params as compared: canonical JSON without `expect`. */
  args: string;
  approved: boolean;
}

/** One room's proposals and the participant's decisions on them. */
export class ApprovalTracker {
  private readonly proposals = new Map<string, Proposal>();

  /** The agent proposed a step; a proposal sent again under the same id replaces the first. */
  proposed(message: MessageOf<'agent.proposal'>): void {
    const { proposalId, tool, args } = message.payload;
    this.proposals.delete(proposalId);
    this.proposals.set(proposalId, { tool, args: canonical(args), approved: false });
    if (this.proposals.size > KEPT_PROPOSALS) this.proposals.delete(this.proposals.keys().next().value as string);
  }

  /** The participant decided; a decision on a proposal the room does not know changes nothing. */
  decided(message: MessageOf<'participant.proposal'>): void {
    const proposal = this.proposals.get(message.payload.proposalId);
    if (!proposal) return;
    if (message.payload.decision === 'approve') proposal.approved = true;
    else this.proposals.delete(message.payload.proposalId);
  }

  /** Uses up the approval of a proposal of this very call; false when there is none. */
  take(toolName: string, params: Record<string, unknown>): boolean {
    const args = canonical(params);
    for (const [id, proposal] of this.proposals) {
      if (proposal.approved && proposal.tool === toolName && proposal.args === args) {
        this.proposals.delete(id);
        return true;
      }
    }
    return false;
  }
}

/** Why the relay refuses an agent's tool call in a room that approves each step; null to let it through. */
export function guardStep(core: RelayCore, room: Room, message: MessageOf<'tool.call'>): string | null {
  if (!approvesEachStep(core, room)) return null;
  if (room.approvals.take(message.payload.toolName, message.payload.params)) return null;
  return `not sent: in this study condition the participant approves each step first, and they have not approved ${message.payload.toolName} with these params. Propose it (agent.proposal) and wait for their approval (participant.proposal)`;
}

function approvesEachStep(core: RelayCore, room: Room): boolean {
  const hooks = core.hooks;
  if (!hooks.approvesEachStep) return false;
  let approves = true;
  // A fault in the listener is contained and reported; the call is then guarded all the same.
  core.guard('step guard', () => {
    approves = hooks.approvesEachStep?.(room.id) ?? false;
  });
  return approves;
}

/** JSON with keys sorted at every level, without the top-level `expect` (the page a call was planned on). */
function canonical(params: Record<string, unknown>): string {
  const { expect: _planned, ...rest } = params;
  return JSON.stringify(rest, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : value,
  );
}
