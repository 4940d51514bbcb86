import { isPlainYes, shortDateLabel } from '@usher/booking';
import type { BookingSummary } from '@usher/protocol';
import type { PerceivedContext } from '../perception/perceive.ts';
import type { ActionOutcome, NavigationPlan, PlannedAction } from '../planning/plan.ts';
import type { Instruction } from './agent-options.ts';

/*
 * What the agent asks before it acts: which of several equal options to take, and whether to
 * submit the booking (through whoever gave the instruction, or in the host's chat).
 */

/** The booking domain's reading of a yes, the same the relay and the export use before a submit. */
export { isPlainYes };

/** What a question in the chat needs from the agent: to write, to show it is idle, and to read a reply as wishes. */
export interface ChatPort {
  say(text: string): void;
  /** Tells the page the agent is not acting while it waits for the answer. */
  idle(): void;
  /** Reads the reply into the wishes; false when nothing in it was understood. */
  hear(text: string): boolean;
  /** {@link ChatQuestion.open} has just changed. */
  changed(): void;
}

/** A yes-or-no question to the participant in the host's chat, open until their next message answers it. */
export class ChatQuestion {
  /** Set while the agent waits for the participant's answer. */
  private answer: ((text: string | null) => void) | null = null;

  constructor(private readonly chat: ChatPort) {}

  /** A question waits for the participant's answer. */
  get open(): boolean {
    return this.answer !== null;
  }

  /** Gives the participant's message to the open question (null: no answer is coming); false when none is open. */
  reply(text: string | null): boolean {
    if (!this.answer) return false;
    this.answer(text);
    return true;
  }

  /**
   * Asks in the chat whether to submit, and waits for the participant's next message: a plain
   * yes submits; anything else does not, and is read as what to change.
   */
  async ask(summary: string): Promise<boolean> {
    this.chat.say(`${summary}\nShall I book it? Reply "yes" to book, or tell me what to change.`);
    this.chat.idle();
    for (;;) {
      const text = await new Promise<string | null>((resolve) => {
        this.answer = (reply) => {
          this.answer = null;
          this.chat.changed();
          resolve(reply);
        };
        this.chat.changed();
      });
      if (text === null) return false;
      if (isPlainYes(text)) return true;
      // Understood as a change: the agent goes on from the new wishes. A bare no waits for one.
      if (this.chat.hear(text)) return false;
      this.chat.say('I have not booked it. Tell me what to change, or say "yes" to book it as it is.');
    }
  }
}

/**
 * When the plan selects one of several equally good options, lets `pick` (whoever gave the
 * instruction) choose, and makes the plan select that one. Returns the id picked, or null when
 * nothing was asked, nothing picked, or the agent was `halted` meanwhile.
 */
export async function offerAlternatives(
  plan: NavigationPlan,
  pick: Instruction['pick'],
  context: PerceivedContext,
  halted: () => boolean,
): Promise<string | null> {
  const action = plan.nextAction;
  if (!pick || !plan.alternatives || action.type !== 'tool.call' || action.toolName !== 'select') return null;
  const stage = context.stage ?? 'option';
  const ids = await pick({
    title: `These ${stage} options fit your wishes equally well. Which one?`,
    items: plan.alternatives.map((a) => ({ id: a.itemId, label: a.label, detail: a.why })),
  });
  const picked = plan.alternatives.find((a) => a.itemId === ids[0]);
  if (!picked || halted()) return null;
  plan.nextAction = {
    type: 'tool.call',
    toolName: 'select',
    params: { itemId: picked.itemId },
    reason: `You picked ${picked.label}: ${picked.why}`,
  };
  return picked.itemId;
}

/**
 * Before the irreversible submit (`next` on the confirm stage), asks `confirm` when there is one:
 * true when it said no.
 */
export async function submitDeclined(
  action: PlannedAction,
  context: PerceivedContext,
  confirm: Instruction['confirmSubmit'],
): Promise<boolean> {
  if (!confirm || action.type !== 'tool.call' || action.toolName !== 'next' || context.stage !== 'confirm') {
    return false;
  }
  const booking = context.uiSpec?.state.booking;
  return !(await confirm(bookingSummary(booking), booking));
}

/**
 * The room refused the submit and the booking is still on the confirm stage: a study condition
 * whose server lets no submit through that the participant did not confirm (the agent asks them).
 */
export function submitRefused(action: PlannedAction, outcome: ActionOutcome, context: PerceivedContext): boolean {
  return (
    !outcome.ok &&
    outcome.code === 'TOOL_EXECUTION_FAILED' &&
    action.type === 'tool.call' &&
    action.toolName === 'next' &&
    context.stage === 'confirm'
  );
}

/** The booking on the confirm stage, in words: film, place, time, seats, tickets and total. */
export function bookingSummary(summary: BookingSummary | undefined): string {
  const booking = summary ?? {};
  const when = [booking.date && shortDateLabel(booking.date), booking.showing?.time].filter(Boolean).join(' at ');
  const format = booking.showing?.format ? ` (${booking.showing.format})` : '';
  const tickets = (booking.tickets ?? []).map((t) => `${t.quantity} × ${t.label}`).join(', ');
  const total = booking.total !== undefined ? `total ${booking.currency ?? ''} ${booking.total.toFixed(2)}` : '';
  return [
    `${booking.movie?.title ?? 'The film'} at ${booking.theater?.name ?? 'the theater'}, ${when}${format}`,
    [booking.seats?.length ? `seats ${booking.seats.join(', ')}` : '', tickets, total.replace('  ', ' ')]
      .filter(Boolean)
      .join('; '),
  ].join('\n');
}

/**
 * The one short chat line the agent says the first time it goes back on the page for a request, so
 * the participant knows why the page moves backwards: comparing showtimes for a wish about the whole
 * booking, or leaving a choice that did not work out (the first sentence of the planner's reason).
 */
export function goingBackLine(comparing: string | null, reason: string): string {
  if (comparing)
    return `To find the ${comparing}, I am comparing a few options, so the page will go back and forth for a moment.`;
  const first = /^.*?[.!?](?=\s|$)/.exec(reason.trim())?.[0] ?? reason.trim();
  return `Going back a step: ${first.length > 160 ? `${first.slice(0, 157)}…` : first}`;
}
