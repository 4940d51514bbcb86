import {
  createError,
  createMessage,
  type HostView,
  type Message,
  ProtocolError,
  type StudySessionInfoSchema,
  toWireError,
} from '@usher/protocol';
import type { z } from 'zod';
import type { BookingEngine } from '../engine/engine.ts';

type StudySessionInfo = z.infer<typeof StudySessionInfoSchema>;

/**
 * The host's side of external-agent-protocol §4: what a host answers to each request and when it
 * pushes `state.updated`. Pure (no sockets), so the headless host and the web host send the same
 * frames for the same inputs. Every method returns the envelopes to send, in order.
 */
export class HostProtocol {
  private studySessionId: string | null = null;

  /**
   * @param onFault told of anything thrown that is not a ProtocolError (a bug in the host): the
   * request is still answered, with `TOOL_EXECUTION_FAILED`, and the host goes on.
   */
  constructor(
    readonly engine: BookingEngine,
    private readonly onFault: (err: unknown) => void = () => {},
  ) {}

  /** The study session the host is serving, as the relay last told it. */
  get sessionId(): string | null {
    return this.studySessionId;
  }

  /** The read surfaces an agent may see; nothing else leaves the host. */
  view(): HostView {
    return this.engine.view();
  }

  /** Answers one envelope from the relay. Requests always get exactly one reply. */
  handle(message: Message): Message[] {
    const replyTo = message.id;
    try {
      switch (message.type) {
        case 'relay.joined':
          this.adoptStudySession(message.payload.studySession ?? null);
          return [];
        case 'session.start': {
          const sessionId = message.payload.sessionId;
          if (!sessionId)
            throw new ProtocolError('INVALID_MESSAGE', 'session.start reached the host without a session id');
          this.engine.reset();
          this.studySessionId = sessionId;
          return [createMessage('session.started', { sessionId }, { replyTo }), this.stateUpdated('host')];
        }
        case 'snapshot.get':
          return [createMessage('snapshot.state', { sessionId: this.studySessionId, ...this.view() }, { replyTo })];
        case 'tool.call': {
          const { toolName, params } = message.payload;
          this.engine.apply(toolName, params, 'agent');
          // The uiSpec goes once, in the state.updated that follows (DESIGN.md: tool.result may leave it out).
          return [
            createMessage('tool.result', { ok: true, toolName }, { replyTo }),
            this.stateUpdated('agent', { toolName, params }),
          ];
        }
        case 'agent.message':
          this.engine.addMessage('agent', message.payload.text);
          return [this.stateUpdated('agent')];
        case 'session.end': {
          const sessionId = this.studySessionId;
          if (!sessionId) throw new ProtocolError('SESSION_NOT_ACTIVE', 'no study session is active on this host');
          // The relay owns the log and fills in its path; the host reports that it resets.
          const ended = createMessage('session.ended', { sessionId, logFile: '', stateReset: true }, { replyTo });
          this.studySessionId = null;
          this.engine.reset();
          return [ended, this.stateUpdated('host')];
        }
        default:
          // Notices (another host joined, the relay's errors) need no answer.
          return [];
      }
    } catch (err) {
      if (!(err instanceof ProtocolError)) this.onFault(err);
      const { code, message: text } = toWireError(err);
      return [createError(code, text, replyTo)];
    }
  }

  /** The participant wrote in the chat: the agent hears it as `user.message`. */
  participantMessage(text: string): Message[] {
    const entry = this.engine.addMessage('participant', text);
    const userMessage = createMessage('user.message', entry.stage ? { text, stage: entry.stage } : { text });
    return [userMessage, this.stateUpdated('user')];
  }

  /**
   * The participant decided on the agent's proposed step (`participant.proposal`), with a button or
   * by typing in the chat (`typed`: their words, kept in the chat and sent as the comment). The chat
   * entry goes with the next state the host pushes: a state pushed now would reach the agent as the
   * participant acting, and withdraw what they just approved.
   */
  participantDecision(proposalId: string, decision: 'approve' | 'reject', typed?: string): Message[] {
    const comment = typed?.trim();
    if (comment) this.engine.addMessage('participant', comment);
    return [createMessage('participant.proposal', { proposalId, decision, ...(comment && { comment }) })];
  }

  /** The participant acted in the UI. Throws a {@link ProtocolError} when the action is refused. */
  participantAction(toolName: string, params: Record<string, unknown> = {}): Message[] {
    this.engine.apply(toolName, params, 'participant');
    return [this.stateUpdated('user', { toolName, params })];
  }

  /** Announces the current state (after a host joins, or restores a page). */
  announce(): Message {
    return this.stateUpdated('host');
  }

  private adoptStudySession(info: StudySessionInfo | null): void {
    this.studySessionId = info?.sessionId ?? null;
  }

  private stateUpdated(
    source: 'user' | 'agent' | 'host',
    action?: { toolName: string; params: Record<string, unknown> },
  ): Message {
    return createMessage('state.updated', action ? { source, ...this.view(), action } : { source, ...this.view() });
  }
}
