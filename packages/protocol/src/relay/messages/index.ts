import type { z } from 'zod';
import { ErrorPayload } from './error.ts';
import { RelayJoinedPayload, RelayJoinPayload } from './handshake.ts';
import { AgentProposalPayload, ParticipantProposalPayload } from './proposal.ts';
import { SessionEndedPayload, SessionEndPayload, SessionStartedPayload, SessionStartPayload } from './session.ts';
import { SnapshotGetPayload, SnapshotStatePayload, StateUpdatedPayload, UserMessagePayload } from './state.ts';
import { AgentMessagePayload, AgentStatusPayload, ToolCallPayload, ToolResultPayload } from './tool.ts';

/** Who puts a message on the wire: a client of the relay in one of its roles, or the relay itself. */
export type Sender = 'host' | 'agent' | 'observer' | 'relay';

interface MessageDefinition {
  readonly payload: z.ZodType<Record<string, unknown>>;
  /** The roles allowed to send it; anything else is `INVALID_MESSAGE`. */
  readonly senders: readonly Sender[];
  /** For a request: the type of its successful reply. */
  readonly reply?: string;
}

/**
 * Every mvp-0.2 message (external-agent-protocol §4), the single list the envelope union, the
 * role rules and the reply pairs are derived from.
 */
export const MESSAGES = {
  'relay.join': { payload: RelayJoinPayload, senders: ['host', 'agent', 'observer'], reply: 'relay.joined' },
  'relay.joined': { payload: RelayJoinedPayload, senders: ['relay'] },
  'session.start': { payload: SessionStartPayload, senders: ['agent'], reply: 'session.started' },
  'session.started': { payload: SessionStartedPayload, senders: ['host', 'relay'] },
  'snapshot.get': { payload: SnapshotGetPayload, senders: ['agent', 'observer'], reply: 'snapshot.state' },
  'snapshot.state': { payload: SnapshotStatePayload, senders: ['host'] },
  'tool.call': { payload: ToolCallPayload, senders: ['agent'], reply: 'tool.result' },
  'tool.result': { payload: ToolResultPayload, senders: ['host'] },
  'agent.message': { payload: AgentMessagePayload, senders: ['agent'] },
  'agent.status': { payload: AgentStatusPayload, senders: ['agent'] },
  'agent.proposal': { payload: AgentProposalPayload, senders: ['agent'] },
  'participant.proposal': { payload: ParticipantProposalPayload, senders: ['host'] },
  'state.updated': { payload: StateUpdatedPayload, senders: ['host'] },
  'user.message': { payload: UserMessagePayload, senders: ['host'] },
  'session.end': { payload: SessionEndPayload, senders: ['agent'], reply: 'session.ended' },
  'session.ended': { payload: SessionEndedPayload, senders: ['host'] },
  error: { payload: ErrorPayload, senders: ['host', 'relay'] },
} as const satisfies Record<string, MessageDefinition>;

export type MessageType = keyof typeof MESSAGES;
export const MESSAGE_TYPES = Object.keys(MESSAGES) as MessageType[];

/** The payload a message of type `T` carries once parsed (defaults applied). */
export type PayloadOf<T extends MessageType> = z.output<(typeof MESSAGES)[T]['payload']>;
/** The payload as a sender may write it (defaults not yet applied). */
export type PayloadInputOf<T extends MessageType> = z.input<(typeof MESSAGES)[T]['payload']>;

export function isMessageType(type: string): type is MessageType {
  return Object.hasOwn(MESSAGES, type);
}

export function maySend(sender: Sender, type: MessageType): boolean {
  return (MESSAGES[type].senders as readonly Sender[]).includes(sender);
}

/** The type of a request's successful reply, or undefined when the message has none. */
export function replyTypeOf(type: MessageType): MessageType | undefined {
  const def: MessageDefinition = MESSAGES[type];
  return def.reply as MessageType | undefined;
}

export * from './error.ts';
export * from './handshake.ts';
export * from './proposal.ts';
export * from './session.ts';
export * from './state.ts';
export * from './tool.ts';
