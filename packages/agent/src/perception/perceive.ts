import type { ChatEntry, Item, MessageOf, Stage, ToolDefinition, UiSpec } from '@usher/protocol';
import { fingerprintOf } from '../memory/fingerprint.ts';
import { type Chosen, completeBooking, noteChoices, withEndTimes } from './chosen.ts';

/** A tool as the planner sees it: its name and its params' JSON Schema, whichever key the host used. */
export interface PerceivedTool {
  name: string;
  category: ToolDefinition['category'];
  description: string;
  params: Record<string, unknown>;
}

/**
 * The agent's stable view of the host (spec §2.1, §4): built only from what the protocol exposes
 * (uiSpec, messageHistory, toolSchema, user.message), never from anything else.
 */
export interface PerceivedContext {
  sessionId: string | null;
  stage: Stage | null;
  uiSpec: UiSpec | null;
  toolSchema: PerceivedTool[];
  lastUserMessage: { text: string; stage?: Stage } | null;
  messageHistoryTail: ChatEntry[];
  /** Who caused the latest change: the participant, the agent, the host, or a resync. */
  source: 'user' | 'agent' | 'host' | 'snapshot' | null;
  /** The tool call behind the latest change, when the host named it. */
  lastAction: { toolName: string; params: Record<string, unknown> } | null;
  /** Grows by one with every perceived change, so the action stage can tell whether state moved. */
  revision: number;
  /** The host names the tool call behind its updates (Usher's `action` extension): seen at least once. */
  tagsActions: boolean;
  /** The latest update only added the agent's own chat message (nothing chosen moved): not a tool call's change. */
  chatOnly: boolean;
  /** The items chosen on each stage so far, for hosts whose uiSpec carries no booking summary. */
  chosen: Chosen;
  /** The booking was submitted: `next` on the confirm stage led to no stage. */
  submitted: boolean;
}

/** What perception reads. */
export type PerceptionEvent = MessageOf<'snapshot.state'> | MessageOf<'state.updated'> | MessageOf<'user.message'>;

const TAIL = 10;

export const EMPTY_CONTEXT: PerceivedContext = {
  sessionId: null,
  stage: null,
  uiSpec: null,
  toolSchema: [],
  lastUserMessage: null,
  messageHistoryTail: [],
  source: null,
  lastAction: null,
  revision: 0,
  tagsActions: false,
  chatOnly: false,
  chosen: {},
  submitted: false,
};

function perceiveTools(toolSchema: ToolDefinition[]): PerceivedTool[] {
  return toolSchema.map((tool) => ({
    name: tool.name,
    category: tool.category,
    description: tool.description,
    params: tool.parameters ?? tool.params ?? {},
  }));
}

/** The next context after one event; pure, so the same events always give the same view. */
export function perceive(previous: PerceivedContext, event: PerceptionEvent): PerceivedContext {
  const revision = previous.revision + 1;
  switch (event.type) {
    case 'snapshot.state':
    case 'state.updated': {
      const { messageHistory, toolSchema } = event.payload;
      const action = event.type === 'state.updated' ? (event.payload.action ?? null) : null;
      const filled = withEndTimes(event.payload.uiSpec, previous.chosen);
      const chosen = noteChoices(previous.chosen, filled);
      const uiSpec = completeBooking(filled, chosen);
      const tail = messageHistory.slice(-TAIL);
      const said = tail.at(-1);
      return {
        ...previous,
        sessionId: event.type === 'snapshot.state' ? event.payload.sessionId : previous.sessionId,
        stage: uiSpec?.stage ?? null,
        uiSpec,
        toolSchema: perceiveTools(toolSchema),
        messageHistoryTail: tail,
        source: event.type === 'snapshot.state' ? 'snapshot' : event.payload.source,
        lastAction: action,
        revision,
        tagsActions: previous.tagsActions || action !== null,
        chatOnly:
          action === null &&
          said?.role === 'agent' &&
          // A new entry: another id, or (a host whose entries have no ids of their own) other text.
          (said.id !== previous.messageHistoryTail.at(-1)?.id ||
            said.text !== previous.messageHistoryTail.at(-1)?.text) &&
          fingerprintOf(uiSpec) === fingerprintOf(previous.uiSpec),
        chosen,
        // Stays set while no stage is loaded; the next stage (a new booking) clears it.
        // Or the confirm page says the booking is done (a host that stays on it: `meta.status: "completed"`, a booking id).
        submitted: (uiSpec === null && (previous.submitted || previous.stage === 'confirm')) || bookedOn(uiSpec),
      };
    }
    case 'user.message':
      return { ...previous, lastUserMessage: { ...event.payload }, revision };
  }
}

const DONE = /^(complete|completed|confirmed|booked|success|succeeded|done|paid)$/i;

/** A confirm page that says the booking is made: its status, or a booking reference it now shows. */
export function bookedOn(uiSpec: UiSpec | null): boolean {
  if (uiSpec?.stage !== 'confirm') return false;
  const meta = uiSpec.meta ?? {};
  const status = meta.status ?? meta.bookingStatus ?? meta.state;
  if (typeof status === 'string' && DONE.test(status.trim())) return true;
  const ref = meta.bookingId ?? meta.bookingReference ?? meta.reference ?? meta.confirmationNumber;
  return typeof ref === 'string' && ref.trim() !== '';
}

/** Whether the host offers `name` now: the planner may only choose from the current toolSchema. */
export function offers(context: PerceivedContext, name: string): boolean {
  return context.toolSchema.some((tool) => tool.name === name);
}

/** The options the participant could choose now: visible and enabled. */
export function choosable(context: PerceivedContext): Item[] {
  return context.uiSpec?.visibleItems.filter((item) => item.isDisabled !== true) ?? [];
}
