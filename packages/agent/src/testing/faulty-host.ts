import { BookingEngine, HostProtocol, type Scenario } from '@usher/booking';
import {
  AGENT_WS_PATH,
  createError,
  createMessage,
  decodeFrame,
  type Message,
  type MessageOf,
  type Stage,
} from '@usher/protocol';
import WebSocket from 'ws';

/** One `tool.call` as the host received it, with what the host had offered and what it did. */
export interface ReceivedCall {
  /** 1-based, over every tool call this host received. */
  index: number;
  /** 1-based, over this host's calls of the same tool. */
  indexOfTool: number;
  toolName: string;
  params: Record<string, unknown>;
  reason: string;
  /** The stage the host showed when the call arrived. */
  stage: Stage | null;
  /** The tool names of the toolSchema this host last sent, when the call arrived. */
  offered: string[];
  /**
   * What the host did: applied it, applied it and dropped its state.updated, failed it on purpose,
   * held it (unanswered so far), or held it and applied it later ({@link FaultyHost.release}).
   */
  fate: 'answered' | 'state-dropped' | 'failed' | 'held' | 'released';
}

/** A rule picking tool calls: those to fail, or those to hold. */
export type CallRule = (call: Omit<ReceivedCall, 'fate' | 'offered'>) => boolean;
/** A rule picking the calls to answer with `TOOL_EXECUTION_FAILED` instead of applying them. */
export type FailRule = CallRule;

export interface FaultyHostOptions {
  /** Base URL of the relay (`http://` or `ws://`). */
  url: string;
  room?: string;
  scenario: Scenario;
  /** The room's host credential (a study link's token), for a relay with access control. */
  token?: string;
  /** Apply the Nth tool call (1-based) and send its tool.result, but not the state.updated that should follow. */
  dropStateAfterCall?: number;
  /** Calls to answer with `TOOL_EXECUTION_FAILED` (see {@link nthCall}, {@link everyCall}). */
  fail?: FailRule;
  /** Leave the Nth tool call (1-based) unanswered, so a test can replace the host or stop the relay meanwhile. */
  holdCall?: number;
  /**
   * Leave the calls this rule picks unanswered until the test calls {@link FaultyHost.release}: the
   * test paces the agent, e.g. the participant writes or clicks while the agent waits for a result.
   */
  hold?: CallRule;
  /**
   * Sends the `state.updated` that shows a participant's chat message ({@link FaultyHost.say}) this
   * long after the `user.message`, as a busy relay may deliver the two a moment apart.
   */
  chatEchoDelayMs?: number;
}

/** Fails the Nth call (1-based) of `toolName`, on `stage` when given. */
export function nthCall(toolName: string, n: number, stage?: Stage): CallRule {
  let seen = 0;
  return (call) => {
    if (call.toolName !== toolName || (stage !== undefined && call.stage !== stage)) return false;
    seen += 1;
    return seen === n;
  };
}

/** Fails every call of `toolName`, on `stage` when given. */
export function everyCall(toolName: string, stage?: Stage): CallRule {
  return (call) => call.toolName === toolName && (stage === undefined || call.stage === stage);
}

/**
 * A booking host for fault-injection tests: joins a relay room over a real WebSocket like the
 * headless host, answers with {@link HostProtocol} on a scenario, and misbehaves on demand: it drops
 * a `state.updated`, fails chosen calls with `TOOL_EXECUTION_FAILED`, or holds a call unanswered
 * (for good, or until {@link release}). A participant is played through {@link say} and {@link act},
 * as on the headless host. It records every frame it receives and every frame it sends, and for
 * each `tool.call` the toolSchema it had offered last.
 */
export class FaultyHost {
  readonly protocol: HostProtocol;
  /** Every frame received from the relay, in order. */
  readonly received: Message[] = [];
  /** Every frame sent to the relay, in order. */
  readonly sent: Message[] = [];
  readonly calls: ReceivedCall[] = [];
  /** Why each frame that failed to decode was unreadable (the relay should send none). */
  readonly unreadable: string[] = [];
  /** The close code the relay closed this host with (4001 when another host replaced it), or null while open. */
  closeCode: number | null = null;
  private ws: WebSocket | null = null;
  private offered: string[] = [];
  private readonly perTool = new Map<string, number>();
  private waiters: Array<{ match: (m: Message) => boolean; resolve: (m: Message) => void }> = [];
  /** Calls held by the `hold` rule and not released yet, oldest first. */
  private held: Array<{ call: ReceivedCall; message: MessageOf<'tool.call'> }> = [];
  private heldWaiters: Array<(call: ReceivedCall) => void> = [];

  constructor(private readonly options: FaultyHostOptions) {
    this.protocol = new HostProtocol(new BookingEngine(options.scenario));
  }

  /** Starts a host and resolves once it has joined and announced its state. */
  static async join(options: FaultyHostOptions): Promise<FaultyHost> {
    const host = new FaultyHost(options);
    await host.start();
    return host;
  }

  /** Connects and joins the room; resolves once joined (and the state announced). */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const base = this.options.url.replace(/^http/, 'ws');
      const url = new URL(AGENT_WS_PATH, base);
      if (this.options.token) url.searchParams.set('token', this.options.token);
      const ws = new WebSocket(url);
      this.ws = ws;
      let joined = false;
      ws.on('open', () => {
        const join = createMessage(
          'relay.join',
          { role: 'host', sessionId: this.options.room ?? 'default' },
          { id: 'join' },
        );
        ws.send(JSON.stringify(join));
      });
      ws.on('message', (data) => {
        const decoded = decodeFrame(String(data));
        if (!decoded.ok) {
          this.unreadable.push(decoded.message);
          return;
        }
        const message = decoded.message;
        this.record(message);
        this.receive(message);
        if (!joined && message.type === 'relay.joined' && message.replyTo === 'join') {
          joined = true;
          this.send([this.protocol.announce()]);
          resolve();
        }
      });
      ws.on('error', (err) => {
        if (!joined) reject(err);
      });
      ws.on('close', (code) => {
        this.closeCode = code;
        if (this.ws === ws) this.ws = null;
        if (!joined) reject(new Error(`the relay closed the connection (${code})`));
      });
    });
  }

  /** Resolves with the first received frame (already here or still to come) that matches. */
  waitFor(match: (m: Message) => boolean, timeoutMs = 10_000): Promise<Message> {
    const seen = this.received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        reject(new Error(`faulty host: no matching frame within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = (m: Message) => {
        clearTimeout(timer);
        resolve(m);
      };
      this.waiters.push({ match, resolve: done });
    });
  }

  /** Resolves once this host has received `n` tool calls. */
  toolCallNumber(n: number, timeoutMs?: number): Promise<Message> {
    let seen = 0;
    return this.waitFor((m) => m.type === 'tool.call' && ++seen === n, timeoutMs);
  }

  /** Resolves with the oldest call held by the `hold` rule and not released yet, as soon as there is one. */
  nextHeld(timeoutMs = 10_000): Promise<ReceivedCall> {
    const first = this.held[0];
    if (first) return Promise.resolve(first.call);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.heldWaiters = this.heldWaiters.filter((w) => w !== done);
        reject(new Error(`faulty host: no call held within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = (call: ReceivedCall) => {
        clearTimeout(timer);
        resolve(call);
      };
      this.heldWaiters.push(done);
    });
  }

  /** Applies the oldest held call now and sends its replies, as if it had just arrived. */
  release(): ReceivedCall {
    const first = this.held.shift();
    if (!first) throw new Error('faulty host: no held call to release');
    first.call.fate = 'released';
    this.send(this.protocol.handle(first.message));
    return first.call;
  }

  /** The participant writes in the chat (the agent hears a `user.message`). */
  say(text: string): void {
    const frames = this.protocol.participantMessage(text);
    const delay = this.options.chatEchoDelayMs;
    if (delay === undefined) return this.send(frames);
    this.send(frames.slice(0, 1));
    setTimeout(() => this.send(frames.slice(1)), delay);
  }

  /** The participant decides on the agent's proposed step (`participant.proposal`), with a button or typed words. */
  decide(proposalId: string, decision: 'approve' | 'reject', typed?: string): void {
    this.send(this.protocol.participantDecision(proposalId, decision, typed));
  }

  /** The participant acts in the UI (a `state.updated` with source `user`); throws when the host refuses it. */
  act(toolName: string, params: Record<string, unknown> = {}): void {
    this.send(this.protocol.participantAction(toolName, params));
  }

  /** The tool names of the toolSchema this host sent last. */
  get offeredTools(): readonly string[] {
    return this.offered;
  }

  close(): void {
    this.ws?.close(1000, 'host stopped');
  }

  private record(message: Message): void {
    this.received.push(message);
    this.waiters = this.waiters.filter((w) => {
      if (!w.match(message)) return true;
      w.resolve(message);
      return false;
    });
  }

  private receive(message: Message): void {
    if (message.type !== 'tool.call') return this.send(this.protocol.handle(message));
    const { toolName, params, reason } = message.payload;
    const index = this.calls.length + 1;
    const indexOfTool = (this.perTool.get(toolName) ?? 0) + 1;
    this.perTool.set(toolName, indexOfTool);
    const stage = this.protocol.view().uiSpec?.stage ?? null;
    const seen = { index, indexOfTool, toolName, params: params ?? {}, reason, stage };
    const call: ReceivedCall = { ...seen, offered: [...this.offered], fate: 'answered' };
    this.calls.push(call);
    if (this.options.holdCall === index) {
      call.fate = 'held';
      return;
    }
    if (this.options.hold?.(seen)) {
      call.fate = 'held';
      this.held.push({ call, message });
      for (const wake of this.heldWaiters.splice(0)) wake(call);
      return;
    }
    if (this.options.fail?.(seen)) {
      call.fate = 'failed';
      return this.send([
        createError('TOOL_EXECUTION_FAILED', `injected fault: ${toolName} failed on the host`, message.id),
      ]);
    }
    const replies = this.protocol.handle(message);
    if (this.options.dropStateAfterCall === index && replies[0]?.type === 'tool.result') {
      call.fate = 'state-dropped';
      return this.send(replies.filter((m) => m.type !== 'state.updated'));
    }
    this.send(replies);
  }

  private send(messages: Message[]): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    for (const message of messages) {
      if (message.type === 'state.updated' || message.type === 'snapshot.state') {
        this.offered = message.payload.toolSchema.map((t) => t.name);
      }
      this.sent.push(message);
      ws.send(JSON.stringify(message));
    }
  }
}
