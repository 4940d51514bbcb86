import type { Role } from '@usher/protocol';
import { WebSocket } from 'ws';
import type { Room } from './room.ts';

/** One WebSocket connection to the relay, before and after it joins a room. */
export class Peer {
  role: Role | null = null;
  room: Room | null = null;
  /** Cleared on every heartbeat ping, set again by the pong; a peer still silent at the next beat is dropped. */
  alive = true;

  constructor(
    readonly ws: WebSocket,
    private readonly seq: number,
  ) {}

  /** A name for logs: `agent-3`, `host-1`, or `conn-5` before joining. */
  get name(): string {
    return `${this.role ?? 'conn'}-${this.seq}`;
  }

  /** Sends one text frame; a Buffer must hold UTF-8 text (a frame forwarded as it arrived). */
  sendText(text: string | Buffer): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text, { binary: false });
  }
}
