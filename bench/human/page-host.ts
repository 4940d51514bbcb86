import { BookingEngine, HostProtocol, type Scenario } from '@usher/booking';
import { AGENT_WS_PATH, createMessage, decodeFrame, type Message } from '@usher/protocol';
import WebSocket from 'ws';

/** What the page saw of one study session (a task's log), to compare with the log afterwards. */
export interface SessionSeen {
  toolCalls: number;
  agentMessages: number;
  userMessages: number;
}

/** Frames from the agent that the participant sees on the page: a chat line, a change, "working". */
export type AgentSign = 'chat' | 'call' | 'working';

/**
 * The participant's page as far as the relay can tell: a host on a plain `ws` socket answering
 * with the booking engine's {@link HostProtocol}, as the web page does, without a browser. It
 * counts what each study session carried, and tells its listener of each sign of the agent.
 */
export class PageHost {
  readonly protocol: HostProtocol;
  readonly sessions = new Map<string, SessionSeen>();
  /** Agent chat lines, in order. */
  readonly chat: string[] = [];
  /** Why the page stopped early (a frame it could not read, a socket closed on it), or null. */
  failure: string | null = null;
  private ws: WebSocket | null = null;
  private closing = false;
  private pings = new Map<number, bigint>();
  private pingSeq = 0;
  private wake: (() => void) | null = null;

  constructor(
    world: Scenario,
    private readonly onSign: (sign: AgentSign) => void,
    private readonly onPong: (rttUs: number) => void,
  ) {
    this.protocol = new HostProtocol(new BookingEngine(world));
  }

  /** Connects, joins `room` as its host and announces the page; resolves once joined. */
  open(base: string, room: string): Promise<void> {
    const ws = new WebSocket(new URL(AGENT_WS_PATH, base.replace(/^http/, 'ws')), { perMessageDeflate: false });
    this.ws = ws;
    return new Promise((resolve, reject) => {
      let joined = false;
      ws.on('open', () =>
        ws.send(JSON.stringify(createMessage('relay.join', { role: 'host', sessionId: room }, { id: 'join' }))),
      );
      ws.on('message', (data: Buffer) => {
        const decoded = decodeFrame(data.toString('utf8'));
        if (!decoded.ok) return this.fail(`unreadable frame: ${decoded.message}`);
        const message = decoded.message;
        this.receive(message);
        if (!joined && message.type === 'relay.joined') {
          joined = true;
          this.send([this.protocol.announce()]);
          resolve();
        }
      });
      ws.on('pong', (data: Buffer) => {
        const sent = data.length === 4 ? this.pings.get(data.readUInt32BE(0)) : undefined;
        if (sent === undefined) return;
        this.pings.delete(data.readUInt32BE(0));
        this.onPong(Number(process.hrtime.bigint() - sent) / 1e3);
      });
      ws.on('error', (err) => (joined ? this.fail(`socket: ${err.message}`) : reject(err)));
      ws.on('close', (code) => {
        if (!joined) reject(new Error(`the relay closed the page's socket (${code})`));
        else if (!this.closing) this.fail(`the relay closed the page's socket (${code})`);
      });
    });
  }

  /** Pings the relay (a WebSocket ping, answered by the server's loop); the round trip goes to `onPong`. */
  ping(): void {
    if (this.ws?.readyState !== WebSocket.OPEN || this.pings.size > 4) return;
    const seq = ++this.pingSeq;
    const data = Buffer.alloc(4);
    data.writeUInt32BE(seq, 0);
    this.pings.set(seq, process.hrtime.bigint());
    this.ws.ping(data);
  }

  /** The participant writes in the chat. */
  say(text: string): void {
    const sessionId = this.protocol.sessionId;
    this.send(this.protocol.participantMessage(text));
    const seen = sessionId ? this.sessions.get(sessionId) : undefined;
    if (seen) seen.userMessages += 1;
  }

  /** Resolves when `check` holds, checked after each frame; rejects after `timeoutMs` or when the page fails. */
  async until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!check()) {
      if (this.failure) throw new Error(this.failure);
      const left = end - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1000));
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  close(): void {
    this.closing = true;
    this.ws?.close(1000, 'page closed');
  }

  private receive(message: Message): void {
    const sessionId = this.protocol.sessionId;
    const seen = sessionId ? this.sessions.get(sessionId) : undefined;
    switch (message.type) {
      case 'tool.call':
        if (seen) seen.toolCalls += 1;
        this.onSign('call');
        break;
      case 'agent.message':
        if (seen) seen.agentMessages += 1;
        this.chat.push(message.payload.text);
        this.onSign('chat');
        break;
      case 'agent.status':
        if (message.payload.state === 'working') this.onSign('working');
        break;
    }
    this.send(this.protocol.handle(message));
    // A session started by this frame: counted from here (its log begins with it).
    const started = this.protocol.sessionId;
    if (started && !this.sessions.has(started)) {
      this.sessions.set(started, { toolCalls: 0, agentMessages: 0, userMessages: 0 });
    }
    this.wake?.();
  }

  private send(messages: Message[]): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    for (const message of messages) ws.send(JSON.stringify(message));
  }

  private fail(why: string): void {
    this.failure ??= why;
    this.wake?.();
  }
}
