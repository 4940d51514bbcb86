import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/** The most `X-Forwarded-For` entries read, from the right: no real chain of proxies is longer. */
const MAX_HOPS = 16;

/**
 * The reverse proxies in front of the server (`usher serve --trust-proxy`): addresses and CIDR
 * ranges, or `loopback` (127.0.0.0/8 and ::1). Only a connection whose peer is one of them may
 * say, with `X-Forwarded-For`, which client it speaks for; the per-address limits then count
 * that client instead of the proxy.
 */
export class TrustedProxies {
  private readonly list = new BlockList();

  /** Throws a RangeError naming an entry that is neither an address, a CIDR range nor `loopback`. */
  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      if (entry === 'loopback') {
        this.list.addSubnet('127.0.0.0', 8, 'ipv4');
        this.list.addAddress('::1', 'ipv6');
        continue;
      }
      const [address = '', bits, ...rest] = entry.split('/');
      const family = isIP(address);
      const prefix = Number(bits);
      const max = family === 4 ? 32 : 128;
      if (family === 0 || rest.length > 0 || (bits !== undefined && !(/^\d{1,3}$/.test(bits) && prefix <= max))) {
        throw new RangeError(`"${entry}" is not an IP address, a CIDR range (e.g. 10.0.0.0/8) or "loopback"`);
      }
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (bits === undefined) this.list.addAddress(address, type);
      else this.list.addSubnet(address, prefix, type);
    }
  }

  has(address: string): boolean {
    const family = isIP(address);
    return family !== 0 && this.list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }
}

/**
 * What {@link clientAddress} says of a connection of the server's own agents (a study's
 * supervisor's, marked with {@link markOwnConnection}): not an address, and counted by no
 * per-address limit nor by `maxConnections` (relay/admission.ts), only by `maxRooms`. They all come
 * from the server's machine, so counted by their address they would share one allowance, and a
 * study with more participants at once than it has would leave the rest without their agent; and
 * counted with strangers, strangers filling the total would leave every participant without one.
 */
export const OWN_AGENTS = 'usher-own-agents';

const ownConnections = new WeakSet<object>();

/** Marks an upgrade request as one of the server's own agents' (its credential says so; see {@link OWN_AGENTS}). */
export function markOwnConnection(request: object): void {
  ownConnections.add(request);
}

/** `::ffff:1.2.3.4` (how a dual-stack socket shows an IPv4 peer) as `1.2.3.4`; other addresses as they are. */
function plain(address: string): string {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : '';
  return isIP(v4) === 4 ? v4 : address;
}

/**
 * The address a request comes from, for the per-address limits. Without trusted proxies, or from
 * a peer that is not one, it is the socket's peer: a stranger's `X-Forwarded-For` is ignored.
 * From a trusted proxy it is the rightmost `X-Forwarded-For` entry that is not itself a trusted
 * proxy (the entries to its left are whatever the client wrote). An entry that is not an IP
 * address ends the walk, and the request counts as the nearest trusted hop's: a hostile or broken
 * header can lump requests together, never spread one client over many addresses.
 */
export function clientAddress(
  request: Pick<IncomingMessage, 'headers'> & { socket: { remoteAddress?: string | undefined } },
  proxies: TrustedProxies | null,
): string {
  if (ownConnections.has(request)) return OWN_AGENTS;
  const peer = request.socket.remoteAddress;
  if (peer === undefined) return 'unknown';
  let client = plain(peer);
  if (!proxies?.has(client)) return client;
  const header = request.headers['x-forwarded-for'];
  // Node joins repeated X-Forwarded-For headers with ", "; an array is taken the same way.
  const joined = Array.isArray(header) ? header.join(',') : (header ?? '');
  const hops = joined.split(',');
  for (let i = hops.length - 1; i >= 0 && i >= hops.length - MAX_HOPS; i--) {
    const hop = plain((hops[i] as string).trim());
    if (isIP(hop) === 0) break;
    client = hop;
    if (!proxies.has(hop)) break;
  }
  return client;
}

/**
 * Whether the client reached the server over HTTPS: a TLS socket of its own, or a trusted proxy's
 * `X-Forwarded-Proto: https` (the rightmost value: what the nearest proxy says). A stranger's
 * header is ignored, as for {@link clientAddress}: it would only decide whether a cookie is
 * marked `Secure`, but a cookie marked so on plain HTTP is never sent back.
 */
export function overHttps(
  request: Pick<IncomingMessage, 'headers'> & {
    socket: { remoteAddress?: string | undefined; encrypted?: boolean | undefined };
  },
  proxies: TrustedProxies | null,
): boolean {
  if (request.socket.encrypted === true) return true;
  const peer = request.socket.remoteAddress;
  if (peer === undefined || !proxies?.has(plain(peer))) return false;
  const header = request.headers['x-forwarded-proto'];
  const joined = Array.isArray(header) ? header.join(',') : (header ?? '');
  return joined.split(',').at(-1)?.trim().toLowerCase() === 'https';
}

/** Who sent a request, as far as the server believes it: see {@link clientAddress} and {@link overHttps}. */
export interface ClientView {
  address(request: IncomingMessage): string;
  https(request: IncomingMessage): boolean;
}

export function clientView(proxies: TrustedProxies | null): ClientView {
  return { address: (request) => clientAddress(request, proxies), https: (request) => overHttps(request, proxies) };
}

/**
 * What the per-address limits count a client as: an IPv4 address as it is, an IPv6 one by its /64
 * (`2001:db8:1:2::/64`). A subscriber or a server is given a whole /64 and may use any of its 2^64
 * addresses, so counting each one would let a single client open connections and admit
 * participants without limit.
 */
export function limitKey(address: string): string {
  const bare = address.split('%')[0] as string;
  if (isIP(bare) !== 6 || bare === '::1') return address;
  const [head = '', tail] = bare.split('::');
  const left = head === '' ? [] : head.split(':');
  let groups = left;
  if (tail !== undefined) {
    const right = tail === '' ? [] : tail.split(':');
    // An IPv4 address written at the end takes two groups.
    const width = [...left, ...right].reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
    groups = [...left, ...Array<string>(8 - width).fill('0'), ...right];
  }
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
