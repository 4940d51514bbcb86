import type { JournalRecord, RecordOf } from './records.ts';

/** The spec's interaction states: `waiting` until `message_completed` or an error ends it. */
export type InteractionState = 'waiting' | 'complete' | 'error';

/** One user request and the agent's answer to it. */
export interface Interaction {
  request_id: string;
  session_id: string;
  /** The user's message. */
  message: string;
  /** The agent the `chat_message` went to. */
  agent_id: string;
  state: InteractionState;
  /** The answer so far: the content of the latest `message_added`. */
  response: string;
  /** The answer's `message_id`, from its first `message_added`. */
  message_id: string | null;
  /** How many `message_added` updates the answer took. */
  updates: number;
  /** Why it ended in `error`. */
  error: string | null;
  created_at: string;
  finished_at: string | null;
}

/** A conversation of the external system; one session ↔ one agent thread. */
export interface Session {
  session_id: string;
  created_at: string;
  /** The agent's thread, once `context_created` named it; sent with every follow-up. */
  acp_thread_id: string | null;
  /** The agent holding the thread (threads live in one agent's memory), or the one asked to make it. */
  agent_id: string | null;
  /** Request ids, oldest first. */
  interactions: string[];
}

/** A record that does not fit the state it is applied to (a journal that is not this store's). */
export class StateError extends Error {
  override readonly name = 'StateError';
}

/**
 * Sessions and interactions as the fold of journal records. {@link apply} is the only way to
 * change them, the same for a live change and for replay, so what comes back after a restart is
 * exactly what was there. It refuses a record that does not fit, never half-applying one.
 */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  private readonly interactions = new Map<string, Interaction>();
  /** Which request each `message_id` answers, so an answer never lands on another interaction. */
  private readonly messageIds = new Map<string, string>();

  session(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  interaction(requestId: string): Interaction | undefined {
    return this.interactions.get(requestId);
  }

  /** The request a `message_id` was first seen on. */
  requestOfMessage(messageId: string): string | undefined {
    return this.messageIds.get(messageId);
  }

  allSessions(): Session[] {
    return [...this.sessions.values()];
  }

  /** The session's interaction still waiting, if any (at most one: a session takes one message at a time). */
  waitingIn(sessionId: string): Interaction | undefined {
    const last = this.sessions.get(sessionId)?.interactions.at(-1);
    const interaction = last === undefined ? undefined : this.interactions.get(last);
    return interaction?.state === 'waiting' ? interaction : undefined;
  }

  /** Every interaction still waiting. */
  waiting(): Interaction[] {
    return [...this.interactions.values()].filter((i) => i.state === 'waiting');
  }

  apply(record: JournalRecord): void {
    switch (record.op) {
      case 'session':
        return this.createSession(record);
      case 'interaction':
        return this.createInteraction(record);
      case 'thread':
        return this.mapThread(record);
      case 'response':
        return this.respond(record);
      case 'complete':
        return this.finish(record.request_id, record.at, 'complete', null);
      case 'error':
        return this.finish(record.request_id, record.at, 'error', record.message);
    }
  }

  private createSession(record: RecordOf<'session'>): void {
    if (this.sessions.has(record.session_id)) throw new StateError(`session ${record.session_id} exists already`);
    this.sessions.set(record.session_id, {
      session_id: record.session_id,
      created_at: record.at,
      acp_thread_id: null,
      agent_id: null,
      interactions: [],
    });
  }

  private createInteraction(record: RecordOf<'interaction'>): void {
    const session = this.mustSession(record.session_id);
    if (this.interactions.has(record.request_id)) throw new StateError(`request ${record.request_id} exists already`);
    if (this.waitingIn(session.session_id)) throw new StateError(`session ${session.session_id} is still waiting`);
    this.interactions.set(record.request_id, {
      request_id: record.request_id,
      session_id: record.session_id,
      message: record.message,
      agent_id: record.agent_id,
      state: 'waiting',
      response: '',
      message_id: null,
      updates: 0,
      error: null,
      created_at: record.at,
      finished_at: null,
    });
    session.interactions.push(record.request_id);
    // Until a thread exists, the session belongs to whichever agent got its latest message.
    if (session.acp_thread_id === null) session.agent_id = record.agent_id;
  }

  private mapThread(record: RecordOf<'thread'>): void {
    const session = this.mustSession(record.session_id);
    if (session.acp_thread_id !== null) throw new StateError(`session ${session.session_id} has a thread already`);
    session.acp_thread_id = record.acp_thread_id;
    session.agent_id = record.agent_id;
  }

  private respond(record: RecordOf<'response'>): void {
    const interaction = this.mustWaiting(record.request_id);
    const owner = this.messageIds.get(record.message_id);
    if (owner !== undefined && owner !== record.request_id) {
      throw new StateError(`message ${record.message_id} answers request ${owner}, not ${record.request_id}`);
    }
    if (interaction.message_id !== null && interaction.message_id !== record.message_id) {
      throw new StateError(`request ${record.request_id} is answered by message ${interaction.message_id}`);
    }
    interaction.message_id = record.message_id;
    interaction.response = record.content;
    interaction.updates += 1;
    this.messageIds.set(record.message_id, record.request_id);
  }

  private finish(requestId: string, at: string, state: 'complete' | 'error', error: string | null): void {
    const interaction = this.mustWaiting(requestId);
    interaction.state = state;
    interaction.error = error;
    interaction.finished_at = at;
  }

  private mustSession(id: string): Session {
    const session = this.sessions.get(id);
    if (!session) throw new StateError(`no session ${id}`);
    return session;
  }

  private mustWaiting(requestId: string): Interaction {
    const interaction = this.interactions.get(requestId);
    if (!interaction) throw new StateError(`no request ${requestId}`);
    if (interaction.state !== 'waiting') throw new StateError(`request ${requestId} is ${interaction.state} already`);
    return interaction;
  }
}
