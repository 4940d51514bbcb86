import { AGENT_WS_PATH, createMessage, type MessageType, type PayloadInputOf, PROTOCOL_VERSION } from '@usher/protocol';
import WebSocket from 'ws';
import { sleep, Tripwire, withTimeout } from './lib/waits.ts';
import { type LoadFigures, type LoadPlan, Loop } from './load.ts';
import type { BenchFrames } from './payloads.ts';

/** Where a room's two sockets connect: the Usher relay, or the bare forwarder of the baseline. */
export interface Target {
  kind: 'relay' | 'forwarder';
  port: number;
}

type Role = 'host' | 'agent';

/** A small frame, parsed: the handshake, and the tool.call the fake host answers. Big frames are never parsed. */
interface Frame {
  type: string;
  id?: string;
  replyTo?: string;
  payload: Record<string, unknown>;
}

const REPLY_TIMEOUT_MS = 10_000;
const prefixOf = (type: MessageType) => Buffer.from(`{"v":"${PROTOCOL_VERSION}","type":"${type}"`);
const TOOL_RESULT = prefixOf('tool.result');
const STATE_UPDATED = prefixOf('state.updated');

function startsWith(data: Buffer, prefix: Buffer): boolean {
  return data.length >= prefix.length && data.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;
}

function urlOf(target: Target, room: string, role: Role): string {
  const base = `ws://127.0.0.1:${target.port}`;
  return target.kind === 'relay' ? `${base}${AGENT_WS_PATH}` : `${base}/fwd/${room}?role=${role}`;
}

/**
 * One bench room: a fake host and an agent. On the relay both join and the agent starts a study
 * session, so every frame after that is logged. Then the agent runs a closed loop of `tool.call`s,
 * one outstanding at a time; the host answers each with `tool.result` and pushes `state.updated`,
 * as a real host does.
 */
class BenchRoom {
  private readonly sockets = new Map<Role, WebSocket>();
  private readonly replies = new Map<string, (frame: Frame) => void>();
  /** Size of a tool.result without its replyTo id (ids are ASCII: one byte a character). */
  private readonly resultBytes: number;
  private readonly stateBytes: number;
  private seq = 0;
  private callId = '';
  private sentAt = 0n;
  /** When the call whose result arrived last was sent, until its state update arrives (0n: none awaited). */
  private answeredCallSentAt = 0n;
  private answeredLoop: Loop | null = null;
  /** The first round trip compares whole frames with the templates; later ones only their sizes. */
  private verify = true;
  private loop: Loop | null = null;
  private idle: (() => void) | null = null;
  private studySession = '';
  private closing = false;

  constructor(
    readonly name: string,
    private readonly target: Target,
    private readonly frames: BenchFrames,
    private readonly tripwire: Tripwire,
  ) {
    this.resultBytes = Buffer.byteLength(frames.toolResult(''));
    this.stateBytes = Buffer.byteLength(frames.stateUpdated);
  }

  /** Connects the host, then the agent (the forwarder pairs them in that order), and opens the session. */
  async open(): Promise<void> {
    await this.connect('host', (data) => this.onHostFrame(data));
    await this.connect('agent', (data) => this.onAgentFrame(data));
    if (this.target.kind === 'forwarder') return;
    await this.request('host', 'relay.join', { role: 'host', sessionId: this.name }, 'relay.joined');
    await this.request('agent', 'relay.join', { role: 'agent', sessionId: this.name }, 'relay.joined');
    await this.request('agent', 'session.start', { studyId: 'bench', participantId: this.name }, 'session.started');
  }

  start(loop: Loop): void {
    this.loop = loop;
    this.call();
  }

  /** Resolves once the outstanding call (if any) has been answered after the loop stopped. */
  stopped(): Promise<void> {
    return this.loop ? new Promise((resolve) => (this.idle = resolve)) : Promise.resolve();
  }

  /** Ends the study session (the relay then flushes and closes its log) and closes both sockets. */
  async close(): Promise<void> {
    if (this.target.kind === 'relay') {
      await this.request('agent', 'session.end', { reason: 'bench phase over' }, 'session.ended');
    }
    this.closing = true;
    await Promise.all(
      [...this.sockets.values()].map((ws) => new Promise((resolve) => ws.once('close', resolve).close())),
    );
  }

  /** Drops both sockets at once, for a run that failed. */
  terminate(): void {
    this.closing = true;
    for (const ws of this.sockets.values()) ws.terminate();
  }

  private connect(role: Role, onFrame: (data: Buffer) => void): Promise<void> {
    // A zero mask makes `ws` skip masking (RFC 6455 allows any mask), which keeps the load generator cheap.
    const ws = new WebSocket(urlOf(this.target, this.name, role), {
      perMessageDeflate: false,
      generateMask: (mask) => mask.fill(0),
    });
    this.sockets.set(role, ws);
    ws.on('message', (data: Buffer) => onFrame(data));
    ws.on('error', (err) => this.fail(`${role} socket: ${err.message}`));
    ws.on('close', (code, reason) => {
      if (!this.closing) this.fail(`${role} socket closed (${code} ${reason.toString()})`);
    });
    return this.tripwire.guard(new Promise((resolve) => ws.once('open', () => resolve())));
  }

  private send(role: Role, text: string): void {
    this.sockets.get(role)?.send(text);
  }

  private call(): void {
    this.seq += 1;
    this.callId = `c${this.seq}`;
    this.sentAt = process.hrtime.bigint();
    this.send('agent', this.frames.toolCall(this.callId));
  }

  private onAgentFrame(data: Buffer): void {
    if (startsWith(data, TOOL_RESULT)) return this.onToolResult(data);
    if (startsWith(data, STATE_UPDATED)) return this.onStateUpdated(data);
    this.deliver(JSON.parse(data.toString('utf8')) as Frame);
  }

  private onToolResult(data: Buffer): void {
    const latencyUs = Number(process.hrtime.bigint() - this.sentAt) / 1e3;
    const loop = this.loop;
    if (!loop) return this.fail('tool.result without a call outstanding');
    if (this.verify && data.toString('utf8') !== this.frames.toolResult(this.callId)) {
      return this.fail(`tool.result differs from the one the host sent: ${data.toString('utf8').slice(0, 200)}`);
    }
    if (data.length !== this.resultBytes + this.callId.length) {
      return this.fail(`tool.result of ${data.length} bytes; expected ${this.resultBytes + this.callId.length}`);
    }
    loop.completed(latencyUs);
    this.answeredCallSentAt = this.sentAt;
    this.answeredLoop = loop;
    if (loop.running) return this.call();
    this.loop = null;
    this.idle?.();
  }

  private onStateUpdated(data: Buffer): void {
    if (this.answeredCallSentAt !== 0n) {
      this.answeredLoop?.settled(Number(process.hrtime.bigint() - this.answeredCallSentAt) / 1e3);
      this.answeredCallSentAt = 0n;
    }
    if (this.verify && data.toString('utf8') !== this.frames.stateUpdated) {
      return this.fail(`state.updated differs from the one the host sent: ${data.toString('utf8').slice(0, 200)}`);
    }
    if (data.length !== this.stateBytes) return this.fail(`state.updated of ${data.length} bytes`);
    this.verify = false;
  }

  /** The fake host: every frame it receives is small, so it simply parses them. */
  private onHostFrame(data: Buffer): void {
    const frame = JSON.parse(data.toString('utf8')) as Frame;
    switch (frame.type) {
      case 'tool.call':
        this.send('host', this.frames.toolResult(frame.id ?? ''));
        this.send('host', this.frames.stateUpdated);
        return;
      case 'session.start':
        this.studySession = String(frame.payload.sessionId);
        return this.reply(frame, 'session.started', { sessionId: this.studySession });
      case 'session.end':
        return this.reply(frame, 'session.ended', { sessionId: this.studySession, logFile: '', stateReset: true });
      default:
        return this.deliver(frame);
    }
  }

  private reply<T extends MessageType>(request: Frame, type: T, payload: PayloadInputOf<T>): void {
    this.send('host', JSON.stringify(createMessage(type, payload, { replyTo: request.id })));
  }

  private async request<T extends MessageType>(
    role: Role,
    type: T,
    payload: PayloadInputOf<T>,
    expect: MessageType,
  ): Promise<void> {
    this.seq += 1;
    const id = `h${this.seq}`;
    const answered = new Promise<Frame>((resolve) => this.replies.set(id, resolve));
    this.send(role, JSON.stringify(createMessage(type, payload, { id })));
    const why = `${this.name}: no answer to ${type} within ${REPLY_TIMEOUT_MS} ms`;
    const reply = await this.tripwire.guard(withTimeout(answered, REPLY_TIMEOUT_MS, why));
    if (reply.type !== expect) throw new Error(`${this.name}: ${type} answered with ${JSON.stringify(reply)}`);
  }

  private deliver(frame: Frame): void {
    const resolve = frame.replyTo === undefined ? undefined : this.replies.get(frame.replyTo);
    if (!resolve) return this.fail(`unexpected frame ${JSON.stringify(frame).slice(0, 200)}`);
    this.replies.delete(frame.replyTo as string);
    resolve(frame);
  }

  private fail(why: string): void {
    this.tripwire.trip(new Error(`${this.target.kind} room ${this.name}: ${why}`));
  }
}

/**
 * Opens `count` rooms (`bench-0` …) on `target`, runs the closed loop of `plan` through all of
 * them, and closes them again, ending their study sessions; on failure the sockets are dropped.
 */
export async function runRooms(
  target: Target,
  count: number,
  frames: BenchFrames,
  plan: LoadPlan,
): Promise<LoadFigures> {
  const tripwire = new Tripwire();
  const rooms = Array.from({ length: count }, (_, i) => new BenchRoom(`bench-${i}`, target, frames, tripwire));
  try {
    await Promise.all(rooms.map((room) => room.open()));
    const loop = new Loop(plan);
    for (const room of rooms) room.start(loop);
    await tripwire.guard(sleep(plan.warmupMs));
    loop.begin();
    await tripwire.guard(loop.ended);
    await tripwire.guard(Promise.all(rooms.map((room) => room.stopped())));
    await tripwire.guard(Promise.all(rooms.map((room) => room.close())));
    return loop.figures();
  } catch (err) {
    for (const room of rooms) room.terminate();
    throw err;
  }
}
