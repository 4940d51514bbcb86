import { HeldWarnings } from '../relay/faults.ts';
import { clientAddress, limitKey, type TrustedProxies } from './client-address.ts';

/** Whether `address` (as {@link clientAddress} gives it) is this machine's own. */
function isLoopback(address: string): boolean {
  return address === '::1' || /^127(\.\d{1,3}){3}$/.test(address);
}

/**
 * The TCP connections the server holds, HTTP or WebSocket, counted as they are accepted: beyond
 * `maxSockets` in all or `maxSocketsPerAddress` from one address (an IPv6 client by its /64) a new
 * one is closed at once. The relay's own limits count WebSockets only, at the upgrade, so without
 * this a stranger could hold every descriptor with sockets that never send a whole request (each
 * lives up to Node's 60 s header timeout, and a few thousand open in a second). Connections from
 * loopback (the server's own agents, a reverse proxy on this machine) and from trusted proxies
 * speak for many clients, so only the total counts them.
 */
export class SocketLimits {
  private total = 0;
  private readonly byAddress = new Map<string, number>();
  private readonly warnings: HeldWarnings;

  constructor(
    private readonly limits: { maxSockets: number; maxSocketsPerAddress: number },
    private readonly proxies: TrustedProxies | null,
    warn: (line: string) => void,
    now: () => Date = () => new Date(),
  ) {
    this.warnings = new HeldWarnings(warn, now);
  }

  /** Open connections counted: for health checks and tests. */
  get open(): number {
    return this.total;
  }

  /** Counts a socket just accepted, or closes it when a limit is reached (said on stderr, at most once per 10 s and address). */
  accept(socket: {
    remoteAddress?: string | undefined;
    destroy(): unknown;
    once(event: 'close', listener: () => void): unknown;
  }): boolean {
    const address = clientAddress({ headers: {}, socket }, null);
    const counted = !isLoopback(address) && !this.proxies?.has(address);
    const key = limitKey(address);
    let refusal: string | null = null;
    if (this.total >= this.limits.maxSockets) {
      refusal = `the server holds its maximum of ${this.limits.maxSockets} connections (maxSockets)`;
    } else if (counted && (this.byAddress.get(key) ?? 0) >= this.limits.maxSocketsPerAddress) {
      refusal = `${key} holds its maximum of ${this.limits.maxSocketsPerAddress} connections (maxSocketsPerAddress)`;
    }
    if (refusal) {
      this.warnings.once(
        `sockets ${counted ? key : 'total'}`,
        `server: closed a connection from ${address}: ${refusal}`,
      );
      socket.destroy();
      return false;
    }
    this.total += 1;
    if (counted) this.byAddress.set(key, (this.byAddress.get(key) ?? 0) + 1);
    socket.once('close', () => {
      this.total -= 1;
      if (!counted) return;
      const left = (this.byAddress.get(key) ?? 1) - 1;
      if (left > 0) this.byAddress.set(key, left);
      else this.byAddress.delete(key);
    });
    return true;
  }
}
