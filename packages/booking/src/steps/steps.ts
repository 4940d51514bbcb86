import type { UiSpec } from '@usher/protocol';
import { isPlainYes } from '../confirmation/confirmation.ts';

/*
 * Step approval (a study condition's `guard: each-step`): the words for a step the agent proposes,
 * the same on the page and in the agent's chat line, and the reading of a typed answer to it.
 */

/** A step as the agent would take it, in a participant's words: "select Orbital Drift", "submit the booking". */
export function describeStep(tool: string, args: Record<string, unknown>, spec: UiSpec | null): string {
  const label = (id: unknown) => {
    const item = spec?.visibleItems.find((i) => i.id === id);
    return item ? String(item.value) : String(id);
  };
  const ids = (Array.isArray(args.itemIds) ? args.itemIds : [args.itemId]).filter((id) => id !== undefined);
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  switch (tool) {
    case 'select':
      return spec?.stage === 'seat' ? `pick seat ${ids.map(label).join(', ')}` : `select ${ids.map(label).join(', ')}`;
    case 'clearSelection':
      return spec?.stage === 'seat' ? 'clear the seats chosen' : 'clear the choice on this step';
    case 'setQuantity':
      return `set ${String(args.typeId)} tickets to ${String(args.quantity)}`;
    case 'next':
      return spec?.stage === 'confirm' ? 'submit the booking' : 'go on to the next step';
    case 'prev':
      return 'go back a step';
    case 'filter':
      return `filter the list by ${String(args.field)}`;
    case 'sort':
      return `sort the list by ${String(args.field)}`;
    case 'highlight':
      return `highlight ${count(Array.isArray(args.itemIds) ? args.itemIds.length : 1, 'option')}`;
    case 'augment':
      return `add notes to ${count(Array.isArray(args.items) ? args.items.length : 1, 'option')}`;
    case 'clearModification':
      return 'clear the changes to the list';
    default:
      return `use ${tool}`;
  }
}

/** The agent's one line for a proposed step: what and why, and how to answer in the chat. */
export function proposalLine(step: string, reason: string): string {
  const said = reason.trim().replace(/\s+/g, ' ');
  const why = said.length > 200 ? `${said.slice(0, 197)}…` : /[.!?…]$/.test(said) ? said : `${said}.`;
  return `Next step: ${step}. ${why} Approve or reject? (Reply "yes" or "no".)`;
}

/**
 * A typed answer to a proposed step: `approve` for a plain yes or "approve", `reject` for an
 * answer that starts with no or "reject" (the rest is the participant's correction), null for
 * words that are neither (a new wish: the agent reads them, and the proposal is withdrawn).
 */
export function readDecision(text: string): 'approve' | 'reject' | null {
  const t = text.trim().toLowerCase();
  if (/^approved?\b/.test(t) && !/\b(no|not|don'?t|but)\b/.test(t)) return 'approve';
  if (isPlainYes(t)) return 'approve';
  if (/^(no|nope|nah|reject(ed)?|don'?t|do not|not that|stop)\b/.test(t)) return 'reject';
  return null;
}
