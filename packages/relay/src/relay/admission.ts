import { MAX_FRAME_BYTES } from '@usher/protocol';
import { limitKey, OWN_AGENTS } from '../access/client-address.ts';
import type { Peer } from './peer.ts';

/**
 * Who is connected from where, and the bytes they are in the middle of sending: the
 * connection limits of {@link RelayLimits} (`maxConnections`, `maxConnectionsPerAddress`,
 * `maxBytesInProgress`).
 *
 * The server's own agents (client-address.ts, {@link OWN_AGENTS}) are counted apart: no
 * per-address limit and not `maxConnections` either, which strangers can fill (32 addresses of 64
 * connections each), and then no participant would get the agent of their condition. They are
 * bounded by `maxRooms` instead: the server starts one per room whose task it opened.
 */
/** A connection that has not joined a room may send no more of one frame than this: a `relay.join` is small. */
export const MAX_BYTES_BEFORE_JOIN = 64 * 1024;

/** The head of a client's control frame: 2 bytes, and the 4 of its mask (its payload is under 126 bytes). */
const CONTROL_FRAME_HEAD = 6;

export class Admission {
  private readonly byAddress = new Map<string, number>();
  /** Each open connection with its limit key (its address's, or {@link OWN_AGENTS}), worked out once at the connection. */
  private readonly peers = new Map<Peer, string>();
  private own = 0;
  private bytesInProgress = 0;
  /** Unfinished bytes by address (its limit key): one address may hold only its share. */
  private readonly progressByAddress = new Map<string, number>();
  /** Connections not read from until their address (or the server) holds less (see {@link check}), by limit key. */
  private readonly paused = new Map<string, Set<Peer>>();
  private pausedCount = 0;

  constructor(
    private readonly limits: {
      maxConnections: number;
      maxConnectionsPerAddress: number;
      maxBytesInProgress: number;
      maxBytesInProgressPerAddress?: number;
      maxRooms: number;
    },
  ) {}

  /** Open connections, the server's own agents' among them. */
  get connections(): number {
    return this.peers.size;
  }

  /** Open connections of the server's own agents (counted by no limit but `maxRooms`). */
  get ownAgents(): number {
    return this.own;
  }

  /** Why a new connection from `address` is refused, or null when it may connect. */
  refusal(address: string): string | null {
    if (address === OWN_AGENTS) {
      // One per room at most: only a fault of the server's own could reach it.
      if (this.own >= this.limits.maxRooms) {
        return `the server's own agents hold one connection for each of its ${this.limits.maxRooms} rooms (maxRooms)`;
      }
      return null;
    }
    if (this.peers.size - this.own >= this.limits.maxConnections) {
      return `the server holds its maximum of ${this.limits.maxConnections} connections (maxConnections)`;
    }
    const key = limitKey(address);
    if ((this.byAddress.get(key) ?? 0) >= this.limits.maxConnectionsPerAddress) {
      return `${key} holds its maximum of ${this.limits.maxConnectionsPerAddress} connections (maxConnectionsPerAddress)`;
    }
    return null;
  }

  add(peer: Peer): void {
    const own = peer.address === OWN_AGENTS;
    const key = own ? OWN_AGENTS : limitKey(peer.address);
    this.peers.set(peer, key);
    if (own) {
      this.own += 1;
      return;
    }
    this.byAddress.set(key, (this.byAddress.get(key) ?? 0) + 1);
  }

  remove(peer: Peer): void {
    const key = this.peers.get(peer);
    if (key === undefined) return;
    this.unpause(peer, key);
    this.release(peer);
    this.peers.delete(peer);
    if (key === OWN_AGENTS) {
      this.own -= 1;
      return;
    }
    const left = (this.byAddress.get(key) ?? 1) - 1;
    if (left > 0) this.byAddress.set(key, left);
    else this.byAddress.delete(key);
  }

  /**
   * `bytes` more arrived from `peer`: counted as they arrive, before the WebSocket reads them, so
   * that a frame they finish is released whole by {@link frameDone}. {@link check} then says what
   * the connection may do next.
   */
  received(peer: Peer, bytes: number): void {
    peer.inProgress += bytes;
    this.bytesInProgress += bytes;
    // Connections are added before they can send; one that is not (closed meanwhile) counts toward the total only.
    const key = this.peers.get(peer);
    if (key !== undefined && key !== OWN_AGENTS) {
      this.progressByAddress.set(key, (this.progressByAddress.get(key) ?? 0) + bytes);
    }
  }

  /**
   * After the WebSocket has read what arrived from `peer`: pauses it, and says why, when it is in
   * the middle of a frame while
   * - it has not joined yet and has sent more of the frame than a join needs
   *   ({@link MAX_BYTES_BEFORE_JOIN}): it stays paused until the join timeout closes it;
   * - its address holds its share (`maxBytesInProgressPerAddress`);
   * - every connection together holds `maxBytesInProgress` and its address more than a valid frame
   *   ({@link MAX_FRAME_BYTES});
   * - every connection together holds `maxBytesInProgress` and a valid frame more (only many
   *   addresses can get there).
   *
   * Nothing more is read from a paused connection: what it sends waits in its own buffers and the
   * kernel's, so holding it costs the server nothing more. (Closing a connection instead, as the
   * relay once did, let its address send as much again at once, on the others or on a new
   * connection: the server read without pause, and what it dropped stayed in memory until garbage
   * collection.) It is read again once none of these holds (a frame finished, a connection closed).
   * One that stays paused is closed by the join timeout before it joins, or else by the heartbeat,
   * whose pong it cannot read.
   */
  check(peer: Peer): { pause: Peer; why: string } | null {
    if (peer.paused) {
      // Read while paused: `ws` resumed the socket itself (it drains one it closes after a frame
      // over its limit, for up to 30 s), and it must not read and drop at full speed meanwhile.
      peer.pause();
      return null;
    }
    if (peer.inProgress === 0) return null;
    const key = this.peers.get(peer);
    if (key === undefined) return null;
    const why = this.mustWait(peer, key);
    if (why === null) return null;
    peer.pause();
    const ofKey = this.paused.get(key);
    if (ofKey) ofKey.add(peer);
    else this.paused.set(key, new Set([peer]));
    this.pausedCount += 1;
    return { pause: peer, why };
  }

  /** Why `peer` (of `key`), in the middle of a frame, may not be read now (see {@link check}), or null. */
  private mustWait(peer: Peer, key: string): string | null {
    if (peer.role === null && peer.inProgress > MAX_BYTES_BEFORE_JOIN) {
      return `it sent ${peer.inProgress} bytes of one frame before joining a room, more than a join needs (${MAX_BYTES_BEFORE_JOIN})`;
    }
    return key === OWN_AGENTS ? null : this.addressMustWait(key);
  }

  /** Why the connections of `key` in the middle of a frame may not be read now, or null. */
  private addressMustWait(key: string): string | null {
    const ofAddress = this.progressByAddress.get(key) ?? 0;
    const share = this.limits.maxBytesInProgressPerAddress;
    if (share !== undefined && ofAddress >= share) {
      return `${key} holds ${ofAddress} bytes of unfinished frame data, its share (maxBytesInProgressPerAddress)`;
    }
    const { maxBytesInProgress } = this.limits;
    const all = this.bytesInProgress;
    if (all >= maxBytesInProgress && (ofAddress > MAX_FRAME_BYTES || all >= maxBytesInProgress + MAX_FRAME_BYTES)) {
      return `all connections hold ${all} bytes of unfinished frame data, ${key} ${ofAddress} of them (maxBytesInProgress)`;
    }
    return null;
  }

  /** Forgets that `peer` (of `key`) is paused, and resumes it when asked to. */
  private unpause(peer: Peer, key: string, resume = false): void {
    const ofKey = this.paused.get(key);
    if (!ofKey?.delete(peer)) return;
    if (ofKey.size === 0) this.paused.delete(key);
    this.pausedCount -= 1;
    if (resume) peer.resume();
  }

  /**
   * Reads again from the paused connections that may go on now that `key` released bytes and the
   * total went from `before` to what it is: those of `key`, or every one when the total fell below
   * one of its marks. (Not all of them at every frame: a server with many paused would pay for it
   * at each frame anyone finishes.)
   */
  private wake(key: string | undefined, before: number): void {
    if (this.pausedCount === 0) return;
    const { maxBytesInProgress } = this.limits;
    const all = this.bytesInProgress;
    const fell = (mark: number) => before >= mark && all < mark;
    const keys =
      fell(maxBytesInProgress) || fell(maxBytesInProgress + MAX_FRAME_BYTES) ? [...this.paused.keys()] : [key];
    for (const k of keys) {
      const ofKey = k === undefined ? undefined : this.paused.get(k);
      if (k === undefined || !ofKey || (k !== OWN_AGENTS && this.addressMustWait(k) !== null)) continue;
      for (const peer of [...ofKey]) if (this.mustWait(peer, k) === null) this.unpause(peer, k, true);
    }
  }

  /** A whole message arrived from `peer`: what it held is released. */
  frameDone(peer: Peer): void {
    this.release(peer);
  }

  /**
   * A ping or pong with `payload` bytes arrived from `peer`: its own bytes are released (a client's
   * control frame is 6 bytes of head and mask and its payload), not the frame it may come between,
   * so that one idle but for its pongs does not look in the middle of a frame.
   */
  controlDone(peer: Peer, payload: number): void {
    this.release(peer, Math.min(peer.inProgress, CONTROL_FRAME_HEAD + payload));
  }

  /** Releases `bytes` (all) of what `peer` holds, and reads again from whom that lets go on. */
  private release(peer: Peer, bytes = peer.inProgress): void {
    if (bytes === 0) return;
    const before = this.bytesInProgress;
    this.bytesInProgress -= bytes;
    peer.inProgress -= bytes;
    const key = this.peers.get(peer);
    if (key !== undefined && key !== OWN_AGENTS) {
      const left = (this.progressByAddress.get(key) ?? 0) - bytes;
      if (left > 0) this.progressByAddress.set(key, left);
      else this.progressByAddress.delete(key);
    }
    this.wake(key, before);
  }

  /** Connections paused now (see {@link check}). */
  get pausedConnections(): number {
    return this.pausedCount;
  }

  get inProgress(): number {
    return this.bytesInProgress;
  }
}
