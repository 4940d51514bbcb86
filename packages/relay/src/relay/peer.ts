import { performance } from 'node:perf_hooks';
import type { Duplex } from 'node:stream';
import type { Role } from '@usher/protocol';
import { WebSocket } from 'ws';
import type { Capability } from '../access/capabilities.ts';
import type { Room } from './room.ts';

/** Sockets corked in this turn of the event loop, uncorked together once it is handled. */
const corked = new Set<Duplex>();

/** Above this share of the last {@link LOAD_WINDOW_MS} spent working, the event loop counts as busy. */
const BUSY_UTILIZATION = 0.9;
const LOAD_WINDOW_MS = 100;

/** Time the event loop has spent working and waiting since it started (ms): Node's `eventLoopUtilization()`. */
export type LoopTimes = { active: number; idle: number };

/**
 * Whether the event loop was busy nearly all of the last 100 ms (sampled at most that often,
 * from Node's event-loop utilization). Replies then wait for the turn's end like pushed frames: a
 * saturated relay gains more from one write per peer and turn than a reply loses by waiting for
 * it, as the reply would have waited in the queue anyway. The clock and the loop's times are
 * given, so a test can say what they read.
 */
export function loadMeter(
  now: () => number = () => performance.now(),
  loopTimes: () => LoopTimes = () => performance.eventLoopUtilization(),
): () => boolean {
  // The first question measures from here, whenever it comes.
  let sampled = { at: Number.NEGATIVE_INFINITY, busy: false, times: loopTimes() };
  return () => {
    const at = now();
    if (at - sampled.at >= LOAD_WINDOW_MS) {
      const times = loopTimes();
      const active = times.active - sampled.times.active;
      const idle = times.idle - sampled.times.idle;
      sampled = { at, busy: active + idle > 0 && active / (active + idle) >= BUSY_UTILIZATION, times };
    }
    return sampled.busy;
  };
}

/** How {@link Peer.sendText} learns whether the loop is busy (tests set it). */
export const loopLoad = { busy: loadMeter() };

function uncorkAll(): void {
  for (const socket of corked) socket.uncork();
  corked.clear();
}

/** One WebSocket connection to the relay, before and after it joins a room. */
export class Peer {
  role: Role | null = null;
  room: Room | null = null;
  /** The payload of the last ping; only a pong carrying it back shows the peer is alive. */
  pingNonce: Buffer | null = null;
  alive = true;
  /** Bytes received since the last whole frame: a frame in progress. */
  inProgress = 0;
  /** Not read from: it is in the middle of a frame while its address, or every connection, holds its share (admission.ts). */
  paused = false;
  /** Closed by a limit: nothing more is sent to it. */
  closing = false;
  joinTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly ws: WebSocket,
    /** The connection under `ws`: corked while a turn's frames to this peer are queued. */
    private readonly socket: Duplex,
    private readonly seq: number,
    /** What the peer's credential lets it do (`open` on a server without access control). */
    readonly capability: Capability,
    /** The remote address it connected from. */
    readonly address: string,
    /** Called when the bytes queued for this peer pass the limit: it is not reading. */
    private readonly onSlow: (peer: Peer) => void,
    private readonly maxBufferedBytes: number,
    /** The upgrade said it is the console (`?as=experimenter`): believed in open mode only, where no credential tells. */
    private readonly console = false,
  ) {}

  /**
   * A name for logs: `agent-3`, `host-1`, `observer-4`, or `conn-5` before joining; a person
   * acting as the agent from the console (an experimenter's credential) is `experimenter-6`, so
   * the study log says who did each action.
   */
  get name(): string {
    if (this.role === 'agent' && this.experimenter) return `experimenter-${this.seq}`;
    return `${this.role ?? 'conn'}-${this.seq}`;
  }

  /** Whether an experimenter holds this connection (their credential, or the console's in open mode). */
  get experimenter(): boolean {
    const { kind } = this.capability;
    return kind === 'experimenter' || (kind === 'open' && this.console);
  }

  /** Stops reading from the socket: what the peer sends waits in its own buffers and the kernel's, not the server's. */
  pause(): void {
    this.paused = true;
    // Through `ws`, which would otherwise resume the socket when its reader drains.
    this.ws.pause();
  }

  resume(): void {
    this.paused = false;
    this.ws.resume();
  }

  /**
   * Sends one text frame; a Buffer must hold UTF-8 text (a frame forwarded as it arrived). A frame
   * someone waits for (a reply, a request) leaves at once, after anything queued before it, unless
   * the event loop is busy ({@link loopLoad}). Pushed frames (state updates, notices) are queued
   * while the turn of the event loop goes on, so that several for one peer leave in one `writev`
   * once the turn is handled.
   */
  sendText(text: string | Buffer, { pushed = false } = {}): void {
    if (this.closing || this.ws.readyState !== WebSocket.OPEN) return;
    const queued = corked.has(this.socket);
    const batch = pushed || loopLoad.busy();
    if (batch && !queued) {
      if (corked.size === 0) queueMicrotask(uncorkAll);
      this.socket.cork();
      corked.add(this.socket);
    } else if (!batch && queued) {
      this.socket.uncork();
      corked.delete(this.socket);
    }
    this.ws.send(text, { binary: false });
    if (this.ws.bufferedAmount > this.maxBufferedBytes) this.onSlow(this);
  }
}
