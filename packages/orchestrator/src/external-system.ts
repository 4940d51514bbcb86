import { randomUUID } from 'node:crypto';
import {
  ChatMessageFields,
  decodeAgentEvent,
  encodeChatMessage,
  type SyncAgentEvent,
  type SyncEventOf,
} from '@usher/protocol/sync';
import { Journal } from './state/journal.ts';
import type { JournalRecord } from './state/records.ts';
import type { Interaction, Session, SessionStore } from './state/store.ts';

/** Why a request of the external system's user was refused; nothing changed. */
export type RequestErrorCode = 'INVALID_MESSAGE' | 'UNKNOWN_SESSION' | 'SESSION_BUSY' | 'NO_AGENT';

export class SyncRequestError extends Error {
  override readonly name = 'SyncRequestError';
  constructor(
    readonly code: RequestErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** How the library reaches one agent's connection; the transport (a WebSocket) implements it. */
export interface AgentLink {
  send(text: string): void;
  /** Closes the connection (a newer connection of the same agent replaces it). */
  close(code: number, reason: string): void;
}

/** A connected agent, as `/healthz` shows it. */
export interface AgentInfo {
  agent_id: string;
  agent: string;
  version: string;
  connected_at: string;
  /** Interactions waiting on this agent. */
  waiting: number;
}

/** A session with its interactions, oldest first. */
export type SessionView = Omit<Session, 'interactions'> & { interactions: Interaction[] };

export interface ExternalSystemOptions {
  /** Folder of the journal (created when missing). */
  dataDir: string;
  /**
   * How long an interaction may wait on an agent that is not connected before it ends in
   * `error`; counted from the disconnection, or from the start for the agents of a previous run.
   */
  agentTimeoutMs?: number;
  log?: (line: string) => void;
  now?: () => Date;
}

/** WebSocket close code for a connection replaced by a newer one of the same agent. */
export const CLOSE_REPLACED = 4001;

/**
 * The external-system side of the external-sync protocol (spec, "External System Side"): it owns
 * the sessions, the session → thread mapping and the interactions (`waiting → complete | error`),
 * all durable in a {@link Journal}. It stores the mapping on `context_created` (or
 * `thread_created`), sends the thread id with every follow-up, overwrites the answer on each
 * `message_added` and ends an interaction only on `message_completed` or `chat_response_error`,
 * for the request that frame names: a completion for an unknown, finished or foreign request is
 * ignored, so no request completes twice or against another interaction. Transport-free: a
 * WebSocket server hands it each agent connection ({@link connect}).
 */
export class ExternalSystem {
  private readonly agentsById = new Map<string, { link: AgentConnection; info: Omit<AgentInfo, 'waiting'> }>();
  /** When each known agent was last seen leaving; agents of a previous run count from the start. */
  private readonly leftAt = new Map<string, number>();
  private readonly startedAt: number;
  private readonly log: (line: string) => void;
  private readonly now: () => Date;
  private readonly agentTimeoutMs: number;

  private constructor(
    private readonly journal: Journal,
    private readonly store: SessionStore,
    options: ExternalSystemOptions,
  ) {
    this.log = options.log ?? (() => {});
    this.now = options.now ?? (() => new Date());
    this.agentTimeoutMs = options.agentTimeoutMs ?? 60_000;
    this.startedAt = this.now().getTime();
  }

  /** Opens the journal in `dataDir` and replays it; throws a JournalError when it cannot. */
  static open(options: ExternalSystemOptions): ExternalSystem & { replayed: { records: number; tornBytes: number } } {
    const opened = Journal.open(options.dataDir);
    const system = new ExternalSystem(opened.journal, opened.store, options);
    return Object.assign(system, { replayed: { records: opened.records, tornBytes: opened.tornBytes } });
  }

  /** Registers a new agent connection; it serves requests once it has sent `agent_ready`. */
  connect(link: AgentLink): AgentConnection {
    return new AgentConnection(this, link);
  }

  createSession(): SessionView {
    const session_id = `ses_${randomUUID()}`;
    this.commit({ op: 'session', at: this.stamp(), session_id });
    return this.view(session_id) as SessionView;
  }

  /**
   * Sends a user's message to the session's agent as `chat_message` (with the session's thread id,
   * null on the first message) and returns its new `waiting` interaction. The interaction is on
   * disk before the frame leaves. Refused, changing nothing, when the session is unknown, still
   * waiting on its previous message, or its agent is not connected.
   */
  sendMessage(sessionId: string, message: string): Interaction {
    const text = ChatMessageFields.message.safeParse(message);
    if (!text.success) throw new SyncRequestError('INVALID_MESSAGE', `message ${text.error.issues[0]?.message}`);
    const session = this.store.session(sessionId);
    if (!session) throw new SyncRequestError('UNKNOWN_SESSION', `no session ${sessionId}`);
    const waiting = this.store.waitingIn(sessionId);
    if (waiting) {
      throw new SyncRequestError(
        'SESSION_BUSY',
        `session ${sessionId} is still waiting for the answer to ${waiting.request_id}; send the next message once it is complete`,
      );
    }
    const agent = this.agentFor(session);
    const request_id = `req_${randomUUID()}`;
    this.commit({
      op: 'interaction',
      at: this.stamp(),
      session_id: sessionId,
      request_id,
      message: text.data,
      agent_id: agent.agentId as string,
    });
    agent.send(
      encodeChatMessage({
        type: 'chat_message',
        data: { helix_session_id: sessionId, acp_thread_id: session.acp_thread_id, message: text.data, request_id },
      }),
    );
    return { ...(this.store.interaction(request_id) as Interaction) };
  }

  view(sessionId: string): SessionView | undefined {
    const session = this.store.session(sessionId);
    if (!session) return undefined;
    const interactions = session.interactions.map((id) => ({ ...(this.store.interaction(id) as Interaction) }));
    return { ...session, interactions };
  }

  sessions(): SessionView[] {
    return this.store.allSessions().map((s) => this.view(s.session_id) as SessionView);
  }

  agents(): AgentInfo[] {
    const waiting = this.store.waiting();
    return [...this.agentsById.values()].map(({ info }) => ({
      ...info,
      waiting: waiting.filter((i) => i.agent_id === info.agent_id).length,
    }));
  }

  /**
   * Ends in `error` every interaction whose agent has not been connected for the agent timeout.
   * The server calls it every second.
   */
  sweep(): void {
    const now = this.now().getTime();
    for (const interaction of this.store.waiting()) {
      if (this.agentsById.has(interaction.agent_id)) continue;
      const since = this.leftAt.get(interaction.agent_id) ?? this.startedAt;
      if (now - since < this.agentTimeoutMs) continue;
      this.fail(
        interaction,
        `the agent ${interaction.agent_id} was disconnected for more than ${Math.round(this.agentTimeoutMs / 1000)} s before answering`,
      );
    }
  }

  close(): void {
    for (const { link } of this.agentsById.values()) link.close(1001, 'orchestrator stopping');
    this.agentsById.clear();
    this.journal.close();
  }

  /** @internal Logs a line about a connection. */
  note(line: string): void {
    this.log(line);
  }

  /** @internal An agent connection said `agent_ready`. */
  ready(connection: AgentConnection, data: SyncEventOf<'agent_ready'>['data']): void {
    const previous = this.agentsById.get(data.agent_id);
    if (previous && previous.link !== connection) {
      previous.link.close(CLOSE_REPLACED, 'replaced by a newer connection of the same agent');
    }
    this.agentsById.set(data.agent_id, {
      link: connection,
      info: { agent_id: data.agent_id, agent: data.agent, version: data.version, connected_at: this.stamp() },
    });
    this.leftAt.delete(data.agent_id);
    this.log(`agent ${data.agent_id} (${data.agent} ${data.version}) ready, still answering ${data.requests.length}`);
    // What this agent no longer answers will never be answered: end it now rather than leave it waiting.
    const answering = new Set(data.requests);
    for (const interaction of this.store.waiting()) {
      if (interaction.agent_id !== data.agent_id || answering.has(interaction.request_id)) continue;
      this.fail(
        interaction,
        'the agent came back without this request (it never received it, or it restarted): its answer is lost',
      );
    }
  }

  /** @internal An agent connection closed. */
  gone(connection: AgentConnection): void {
    const id = connection.agentId;
    if (id === null || this.agentsById.get(id)?.link !== connection) return;
    this.agentsById.delete(id);
    this.leftAt.set(id, this.now().getTime());
    this.log(`agent ${id} disconnected`);
  }

  /** @internal One event from a ready agent. */
  handle(agentId: string, event: Exclude<SyncAgentEvent, { event_type: 'agent_ready' }>): void {
    switch (event.event_type) {
      case 'context_created':
      case 'thread_created':
        return this.onThread(agentId, event);
      case 'message_added':
        return this.onMessageAdded(agentId, event);
      case 'message_completed':
        return this.onCompleted(agentId, event);
      case 'chat_response_error':
        return this.onError(agentId, event);
    }
  }

  private onThread(agentId: string, event: SyncEventOf<'context_created' | 'thread_created'>): void {
    const { acp_thread_id, helix_session_id, request_id } = event.data;
    const ignore = (why: string) => this.log(`ignored ${event.event_type} for ${helix_session_id}: ${why}`);
    if (event.session_id !== helix_session_id) return ignore(`session_id is ${event.session_id}`);
    const session = this.store.session(helix_session_id);
    if (!session) return ignore('no such session');
    if (session.agent_id !== agentId) return ignore(`the session is served by agent ${session.agent_id}`);
    if (request_id !== undefined && this.store.interaction(request_id)?.session_id !== helix_session_id) {
      return ignore(`request ${request_id} is not one of this session's`);
    }
    if (session.acp_thread_id === acp_thread_id) return; // sent again after a reconnection
    if (session.acp_thread_id !== null) return ignore(`the session's thread is ${session.acp_thread_id} already`);
    this.commit({ op: 'thread', at: this.stamp(), session_id: helix_session_id, acp_thread_id, agent_id: agentId });
  }

  private onMessageAdded(agentId: string, event: SyncEventOf<'message_added'>): void {
    const { message_id, content, request_id } = event.data;
    // The request it names; else the one this message already answers; else the spec's rule: the session's waiting one.
    const requestId =
      request_id ?? this.store.requestOfMessage(message_id) ?? this.store.waitingIn(event.session_id)?.request_id;
    const interaction = requestId === undefined ? undefined : this.store.interaction(requestId);
    const why = this.mismatch(agentId, event.session_id, event.data.acp_thread_id, interaction);
    if (why) return this.log(`ignored message_added ${message_id}: ${why}`);
    const waiting = interaction as Interaction;
    const owner = this.store.requestOfMessage(message_id);
    if (owner !== undefined && owner !== waiting.request_id) {
      return this.log(`ignored message_added ${message_id}: it answers ${owner}, not ${waiting.request_id}`);
    }
    if (waiting.message_id !== null && waiting.message_id !== message_id) {
      return this.log(
        `ignored message_added ${message_id}: ${waiting.request_id} is answered by ${waiting.message_id}`,
      );
    }
    if (waiting.message_id === message_id && waiting.response === content) return; // sent again after a reconnection
    this.commit({ op: 'response', at: this.stamp(), request_id: waiting.request_id, message_id, content });
  }

  private onCompleted(agentId: string, event: SyncEventOf<'message_completed'>): void {
    const { request_id, message_id } = event.data;
    const interaction = this.store.interaction(request_id);
    const why = this.mismatch(agentId, event.session_id, event.data.acp_thread_id, interaction);
    if (why) return this.log(`ignored message_completed for ${request_id}: ${why}`);
    const waiting = interaction as Interaction;
    if (waiting.message_id !== null && waiting.message_id !== message_id) {
      return this.log(`ignored message_completed for ${request_id}: it is answered by ${waiting.message_id}`);
    }
    this.commit({ op: 'complete', at: this.stamp(), request_id });
  }

  private onError(agentId: string, event: SyncEventOf<'chat_response_error'>): void {
    const { request_id, message } = event.data;
    if (request_id === undefined) {
      return this.log(`agent ${agentId} reported an error for no request (session ${event.session_id}): ${message}`);
    }
    const interaction = this.store.interaction(request_id);
    const session = event.session_id ?? interaction?.session_id ?? '';
    const why = this.mismatch(agentId, session, event.data.acp_thread_id, interaction);
    if (why) return this.log(`ignored chat_response_error for ${request_id}: ${why}`);
    this.fail(interaction as Interaction, message);
  }

  /** Why an event may not change `interaction`, or null when it may. */
  private mismatch(
    agentId: string,
    sessionId: string,
    threadId: string | undefined,
    interaction: Interaction | undefined,
  ): string | null {
    if (!interaction) return 'no such request';
    if (interaction.session_id !== sessionId) return `the request belongs to session ${interaction.session_id}`;
    if (interaction.state !== 'waiting') return `the request is ${interaction.state} already`;
    if (interaction.agent_id !== agentId) return `the request was sent to agent ${interaction.agent_id}`;
    const thread = this.store.session(sessionId)?.acp_thread_id ?? null;
    if (threadId !== undefined && thread !== null && threadId !== thread) return `the session's thread is ${thread}`;
    return null;
  }

  private fail(interaction: Interaction, message: string): void {
    this.commit({ op: 'error', at: this.stamp(), request_id: interaction.request_id, message });
  }

  /** The connected agent for this session's next message: the one holding its thread, or the least busy. */
  private agentFor(session: Session): AgentConnection {
    if (session.acp_thread_id !== null && session.agent_id !== null) {
      const holder = this.agentsById.get(session.agent_id);
      if (holder) return holder.link;
      throw new SyncRequestError(
        'NO_AGENT',
        `the agent holding session ${session.session_id}'s thread (${session.agent_id}) is not connected`,
      );
    }
    const ranked = this.agents().sort((a, b) => a.waiting - b.waiting);
    const chosen = ranked[0] && this.agentsById.get(ranked[0].agent_id);
    if (!chosen) throw new SyncRequestError('NO_AGENT', 'no agent is connected');
    return chosen.link;
  }

  private commit(record: JournalRecord): void {
    this.journal.commit(record);
  }

  private stamp(): string {
    return this.now().toISOString();
  }
}

/**
 * One agent's WebSocket connection, as the library sees it: frames in ({@link receive}), frames
 * out through its {@link AgentLink}. Until `agent_ready` it serves nothing.
 */
export class AgentConnection {
  agentId: string | null = null;
  private open = true;

  constructor(
    private readonly system: ExternalSystem,
    private readonly link: AgentLink,
  ) {}

  /** One text frame from the agent. A frame that is not JSON or not an event is logged and ignored. */
  receive(text: string): void {
    const decoded = decodeAgentEvent(text);
    const log = (line: string) => this.system.note(`agent ${this.agentId ?? '(not ready)'}: ${line}`);
    if (!decoded.ok) return log(`ignored a frame: ${decoded.reason}`);
    const event = decoded.value;
    if (event.event_type === 'agent_ready') {
      if (this.agentId !== null && this.agentId !== event.data.agent_id) {
        return log(`ignored agent_ready naming another agent (${event.data.agent_id})`);
      }
      this.agentId = event.data.agent_id;
      return this.system.ready(this, event.data);
    }
    if (this.agentId === null) return log(`ignored ${event.event_type} sent before agent_ready`);
    this.system.handle(this.agentId, event);
  }

  /** The connection closed. */
  closed(): void {
    this.open = false;
    this.system.gone(this);
  }

  send(text: string): void {
    if (this.open) this.link.send(text);
  }

  close(code: number, reason: string): void {
    this.link.close(code, reason);
  }
}
