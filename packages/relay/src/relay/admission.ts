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

export class Admission {
  private readonly byAddress = new Map<string, number>();
  /** Each open connection with its limit key (its address's, or {@link OWN_AGENTS}), worked out once at the connection. */
  private readonly peers = new Map<Peer, string>();
  private own = 0;
  private bytesInProgress = 0;
  /** Unfinished bytes by address (its limit key): one address may hold only its share. */
  private readonly progressByAddress = new Map<string, number>();

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
    this.frameDone(peer);
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
   * `bytes` more arrived from `peer`, counted as they arrive. Returns the peer to close, with why:
   * one that has not joined yet and sends more than a join needs ({@link MAX_BYTES_BEFORE_JOIN});
   * the one holding most of its address's unfinished bytes when that address holds more than its
   * share (`maxBytesInProgressPerAddress`); the one holding most of all when every connection
   * together holds more than `maxBytesInProgress`.
   */
  received(peer: Peer, bytes: number): { peer: Peer; why: string } | null {
    peer.inProgress += bytes;
    this.bytesInProgress += bytes;
    // Connections are added before they can send; one that is not (closed meanwhile) counts toward the total only.
    const key = this.peers.get(peer);
    const own = key === undefined || key === OWN_AGENTS;
    const ofAddress = own ? 0 : (this.progressByAddress.get(key) ?? 0) + bytes;
    if (!own) this.progressByAddress.set(key, ofAddress);
    if (peer.role === null && peer.inProgress > MAX_BYTES_BEFORE_JOIN) {
      return {
        peer,
        why: `it sent ${peer.inProgress} bytes of one frame before joining a room, more than a join needs (${MAX_BYTES_BEFORE_JOIN})`,
      };
    }
    const share = this.limits.maxBytesInProgressPerAddress;
    if (!own && share !== undefined && ofAddress > share) {
      let largest = peer;
      for (const [other, otherKey] of this.peers) {
        if (otherKey === key && other.inProgress > largest.inProgress) largest = other;
      }
      return {
        peer: largest,
        why: `it held ${largest.inProgress} bytes of an unfinished frame while ${key} held more than ${share} (maxBytesInProgressPerAddress)`,
      };
    }
    if (this.bytesInProgress <= this.limits.maxBytesInProgress) return null;
    let largest = peer;
    for (const other of this.peers.keys()) if (other.inProgress > largest.inProgress) largest = other;
    return {
      peer: largest,
      why: `it held ${largest.inProgress} bytes of an unfinished frame while all connections held more than ${this.limits.maxBytesInProgress} (maxBytesInProgress)`,
    };
  }

  /** A whole frame (or a control frame) arrived from `peer`: what it held is released. */
  frameDone(peer: Peer): void {
    this.bytesInProgress -= peer.inProgress;
    const key = this.peers.get(peer);
    if (peer.inProgress > 0 && key !== undefined && key !== OWN_AGENTS) {
      const left = (this.progressByAddress.get(key) ?? 0) - peer.inProgress;
      if (left > 0) this.progressByAddress.set(key, left);
      else this.progressByAddress.delete(key);
    }
    peer.inProgress = 0;
  }

  get inProgress(): number {
    return this.bytesInProgress;
  }
}
