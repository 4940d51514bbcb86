import { randomUUID } from 'node:crypto';
import { EMPTY_MODEL } from '@usher/agent';
import { exceedsDepth, MAX_JSON_DEPTH } from '@usher/protocol';
import {
  ChatMessageFields,
  CommandEnvelopeSchema,
  encodeEvent,
  type SyncAgentEvent,
  unixSeconds,
} from '@usher/protocol/sync';
import type { Conversation, RunEngine, RunOutcome } from '../engine.ts';
import { SyncConnection } from './connection.ts';
import { type FrameSlot, RequestLedger } from './ledger.ts';

export interface SyncAgentOptions {
  /** The orchestrator's endpoint, whole (`ws://…/api/v1/external-agents/sync`). */
  url: string;
  token: string;
  /** Carries out each instruction (the agent on the host in a room). */
  engine: RunEngine;
  /** Name and version announced in `agent_ready`. */
  agent?: string;
  version?: string;
  log?: (line: string) => void;
  backoffMs?: { first: number; max: number };
}

/** The ids a `chat_message` carried that were valid, echoed on everything sent for it. */
interface Ids {
  session_id?: string;
  request_id?: string;
  acp_thread_id?: string;
}

/**
 * The agent side of the external-sync protocol (specs/external-sync-websocket.md, "Zed side"):
 * each `chat_message` is one instruction for the {@link RunEngine}. A message without a thread
 * creates one (a {@link Conversation}, whose wishes carry over to the thread's next messages) and
 * says so once with `context_created`; the answer streams as `message_added` with one
 * `message_id` and cumulative content (each line the agent writes in the host's chat, then the
 * final answer), then `message_completed` with the `request_id`. A request that cannot be served
 * ends with `chat_response_error` instead. External session ids are only echoed, never stored;
 * what the agent keeps is its own threads (thread id → conversation), in memory. Requests are
 * never refused as busy: the engine queues runs.
 */
export class SyncAgent {
  /** Stays the same across reconnections, so the orchestrator knows its requests are still answered. */
  readonly agentId = `agent_${randomUUID()}`;
  private readonly threads = new Map<string, Conversation>();
  private readonly ledger = new RequestLedger();
  private readonly connection: SyncConnection;
  private readonly aborter = new AbortController();
  private readonly running = new Set<Promise<void>>();
  /** The requests being answered, with the ids to end them with. */
  private readonly answering = new Map<string, Ids>();
  private readonly log: (line: string) => void;

  constructor(private readonly options: SyncAgentOptions) {
    this.log = options.log ?? (() => {});
    this.connection = new SyncConnection({
      url: options.url,
      token: options.token,
      log: this.log,
      onOpen: () => this.announce(),
      onFrame: (text) => this.receive(text),
      ...(options.backoffMs && { backoffMs: options.backoffMs }),
    });
  }

  start(): void {
    this.connection.start();
  }

  /**
   * Stops: requests in flight are cancelled and end with `chat_response_error`, sent before the
   * connection closes. A run that does not stop within `graceMs` (one waiting on a relay that
   * does not answer) is reported as stopped all the same. The engine is its owner's to close.
   */
  async close(graceMs = 3000): Promise<void> {
    this.aborter.abort();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.running]),
      new Promise((resolve) => {
        timer = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(timer);
    for (const [requestId, ids] of this.answering) {
      this.fail({ ...ids, request_id: requestId }, 'the agent stopped before it finished this request');
    }
    await this.connection.close();
  }

  /** After every (re)connection: `agent_ready`, then what may not have arrived of the requests it names. */
  private announce(): void {
    const ready = encodeEvent({
      event_type: 'agent_ready',
      data: {
        agent_id: this.agentId,
        agent: this.options.agent ?? 'usher',
        version: this.options.version ?? '0.1.0',
        requests: this.ledger.requestIds(),
      },
    });
    this.connection.send(ready);
    for (const resend of this.ledger.replay()) {
      this.connection.send(resend.frame, (ok) => ok && this.ledger.delivered(resend));
    }
  }

  private receive(text: string): void {
    if (exceedsDepth(text)) return this.log(`sync: ignored a frame nested deeper than ${MAX_JSON_DEPTH} levels`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return this.log(`sync: ignored a frame that is not JSON: ${text.slice(0, 120)}`);
    }
    const envelope = CommandEnvelopeSchema.safeParse(json);
    if (!envelope.success) return this.log('sync: ignored a frame without a "type"');
    if (envelope.data.type !== 'chat_message') {
      return this.log(`sync: ignored a frame of unknown type ${JSON.stringify(envelope.data.type)}`);
    }
    const task = this.chat(envelope.data.data).catch((err: unknown) =>
      this.log(`sync: failed while answering: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
    );
    this.running.add(task);
    task.finally(() => this.running.delete(task));
  }

  private async chat(raw: unknown): Promise<void> {
    const data = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const session = ChatMessageFields.helix_session_id.safeParse(data.helix_session_id);
    const request = ChatMessageFields.request_id.safeParse(data.request_id);
    const thread = ChatMessageFields.acp_thread_id.optional().safeParse(data.acp_thread_id);
    const message = ChatMessageFields.message.safeParse(data.message);
    const ids: Ids = {
      ...(session.success && { session_id: session.data }),
      ...(request.success && { request_id: request.data }),
      ...(thread.success && thread.data && { acp_thread_id: thread.data }),
    };
    if (!request.success) {
      return this.fail(ids, `chat_message needs data.request_id (${issue(request.error)})`);
    }
    const requestId = request.data;
    if (this.ledger.isActive(requestId)) return this.log(`sync: ${requestId} is being answered already`);
    const answered = this.ledger.answered(requestId);
    if (answered) {
      // Sent again (after a reconnection, say): the same answer, not a second run.
      for (const frame of answered) this.connection.send(frame);
      return;
    }
    this.ledger.begin(requestId);
    if (!session.success) return this.fail(ids, `chat_message needs data.helix_session_id (${issue(session.error)})`);
    if (!message.success) return this.fail(ids, `chat_message needs data.message (${issue(message.error)})`);
    if (!thread.success) return this.fail(ids, 'data.acp_thread_id must be a thread id or null');

    let conversation: Conversation;
    if (thread.data) {
      const known = this.threads.get(thread.data);
      if (!known) {
        return this.fail(
          ids,
          `unknown acp_thread_id ${thread.data}: this agent holds no such thread (threads live in the agent's memory and end with it); send null to start a new one`,
        );
      }
      conversation = known;
    } else {
      conversation = { id: randomUUID(), model: structuredClone(EMPTY_MODEL) };
      this.threads.set(conversation.id, conversation);
      ids.acp_thread_id = conversation.id;
      this.emit(requestId, 'created', {
        session_id: session.data,
        event_type: 'context_created',
        data: { acp_thread_id: conversation.id, helix_session_id: session.data, request_id: requestId },
      });
    }
    await this.answer(
      { session: session.data, request: requestId, thread: conversation.id },
      message.data,
      conversation,
    );
  }

  /** Runs the instruction and streams its answer. */
  private async answer(
    ids: { session: string; request: string; thread: string },
    text: string,
    conversation: Conversation,
  ): Promise<void> {
    this.answering.set(ids.request, { session_id: ids.session, acp_thread_id: ids.thread });
    const messageId = `ai_msg_${randomUUID()}`;
    const lines: string[] = [];
    const add = (line: string) => {
      if (line.trim() === '') return;
      lines.push(line);
      this.emit(ids.request, 'added', {
        session_id: ids.session,
        event_type: 'message_added',
        data: {
          acp_thread_id: ids.thread,
          message_id: messageId,
          role: 'assistant',
          content: lines.join('\n'),
          timestamp: unixSeconds(),
          request_id: ids.request,
        },
      });
    };
    let outcome: RunOutcome;
    try {
      outcome = await this.options.engine.run({
        text,
        conversation,
        signal: this.aborter.signal,
        emit: (event) => {
          if (event.type === 'text') add(event.content);
          // The final answer is often the agent's last chat line already; it is not repeated.
          else if (event.type === 'final' && event.content !== lines.at(-1)) add(event.content);
        },
      });
    } catch (err) {
      outcome = {
        status: 'error',
        message: err instanceof Error ? err.message : String(err),
        booked: false,
        toolCalls: 0,
      };
    }
    const echo = { session_id: ids.session, request_id: ids.request, acp_thread_id: ids.thread };
    if (outcome.status === 'cancelled') return this.fail(echo, 'the agent stopped before it finished this request');
    if (outcome.status === 'error') return this.fail(echo, outcome.message || 'the run failed');
    if (lines.length === 0) add(outcome.message || 'Done.');
    this.emit(ids.request, 'end', {
      session_id: ids.session,
      event_type: 'message_completed',
      data: { acp_thread_id: ids.thread, message_id: messageId, request_id: ids.request },
    });
    this.ledger.finish(ids.request);
    this.answering.delete(ids.request);
  }

  /** Ends a request with `chat_response_error`, carrying whichever ids it had. */
  private fail(ids: Ids, message: string): void {
    this.log(`sync: ${ids.request_id ?? 'a request without an id'}: ${message}`);
    const event: SyncAgentEvent = {
      ...(ids.session_id !== undefined && { session_id: ids.session_id }),
      event_type: 'chat_response_error',
      data: {
        ...(ids.acp_thread_id !== undefined && { acp_thread_id: ids.acp_thread_id }),
        ...(ids.request_id !== undefined && { request_id: ids.request_id }),
        message,
      },
    };
    if (ids.request_id === undefined) {
      this.connection.send(encodeEvent(event));
      return;
    }
    this.emit(ids.request_id, 'end', event);
    this.ledger.finish(ids.request_id);
    this.answering.delete(ids.request_id);
  }

  /** Sends a request's frame now if connected, and keeps it, marked once it has left, for the next reconnection. */
  private emit(requestId: string, slot: FrameSlot, event: SyncAgentEvent): void {
    if (!this.ledger.isActive(requestId)) return; // ended already (stopped at shutdown)
    const frame = encodeEvent(event);
    // Sent counts once the frame has left for the network, not when it was queued on a socket that may die.
    this.ledger.record(requestId, slot, frame, false);
    this.connection.send(frame, (ok) => ok && this.ledger.delivered({ requestId, slot, frame }));
  }
}

function issue(error: { issues: Array<{ message: string }> }): string {
  return error.issues[0]?.message ?? 'invalid';
}
