import { describe, expect, it } from 'vitest';
import { Admission } from '../relay/admission.ts';
import type { Peer } from '../relay/peer.ts';
import { clientAddress, limitKey, overHttps, TrustedProxies } from './client-address.ts';

const proxies = new TrustedProxies(['loopback', '10.0.0.0/8', 'fd00::/8']);
const from = (peer: string | undefined, forwarded?: string | string[], trusted: TrustedProxies | null = proxies) =>
  clientAddress(
    {
      socket: { remoteAddress: peer },
      headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded as string },
    },
    trusted,
  );

describe('clientAddress', () => {
  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(from('203.0.113.9', '198.51.100.1', null)).toBe('203.0.113.9');
    expect(from('::ffff:203.0.113.9', undefined, null)).toBe('203.0.113.9');
    expect(from(undefined, '198.51.100.1', null)).toBe('unknown');
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy (a stranger cannot pick its address)', () => {
    expect(from('203.0.113.9', '198.51.100.1')).toBe('203.0.113.9');
  });

  it('takes the rightmost hop that is not a trusted proxy, from a trusted proxy', () => {
    expect(from('127.0.0.1', '198.51.100.1')).toBe('198.51.100.1');
    expect(from('::ffff:127.0.0.1', '198.51.100.1')).toBe('198.51.100.1');
    // The client wrote the left part itself; the proxies appended the rest.
    expect(from('127.0.0.1', '1.1.1.1, 198.51.100.1, 10.2.3.4')).toBe('198.51.100.1');
    expect(from('::1', '2001:db8::7, fd00::1')).toBe('2001:db8::7');
    // Repeated headers count as one list, in order.
    expect(from('127.0.0.1', ['1.1.1.1', '198.51.100.1'])).toBe('198.51.100.1');
    // Every hop trusted: the leftmost.
    expect(from('127.0.0.1', '10.9.9.9, 10.1.1.1')).toBe('10.9.9.9');
  });

  it('lumps hostile or broken headers under the nearest trusted hop, never under an address the client chose', () => {
    expect(from('127.0.0.1')).toBe('127.0.0.1');
    expect(from('127.0.0.1', '')).toBe('127.0.0.1');
    expect(from('127.0.0.1', 'not-an-address')).toBe('127.0.0.1');
    expect(from('127.0.0.1', '198.51.100.1, <script>')).toBe('127.0.0.1');
    expect(from('127.0.0.1', '10.1.1.1, 198.51.100.1:443')).toBe('127.0.0.1');
    expect(from('127.0.0.1', `${'9.9.9.9, '.repeat(5000)}198.51.100.1`)).toBe('198.51.100.1');
    // A chain of trusted hops is read 16 deep at most.
    expect(from('127.0.0.1', `198.51.100.1, ${'10.0.0.1, '.repeat(40)}10.0.0.2`)).toBe('10.0.0.1');
  });
});

describe('TrustedProxies', () => {
  it('takes addresses, CIDR ranges and loopback', () => {
    const list = new TrustedProxies(['192.0.2.10', '10.0.0.0/8', '2001:db8::/32', 'loopback']);
    for (const address of ['192.0.2.10', '10.255.0.1', '2001:db8::1', '127.0.0.5', '::1']) {
      expect(list.has(address), address).toBe(true);
    }
    for (const address of ['192.0.2.11', '11.0.0.1', '2001:db9::1', 'localhost', '']) {
      expect(list.has(address), address).toBe(false);
    }
  });

  it.each(['localhost', '10.0.0.0/33', '10.0.0.0/', '10.0.0.0/8/8', '::1/129', '10.0.0.0/-1', ''])(
    'refuses %j',
    (entry) => {
      expect(() => new TrustedProxies([entry])).toThrow(/not an IP address, a CIDR range/);
    },
  );
});

describe('limitKey', () => {
  it('counts an IPv6 client by its /64, which it may fill with addresses of its choosing, and an IPv4 one as it is', () => {
    const one = [
      '2001:db8:1:2::1',
      '2001:db8:1:2:aaaa:bbbb:cccc:dddd',
      '2001:0db8:0001:0002::ffff',
      '2001:db8:1:2::9%eth0',
    ];
    for (const address of one) expect(limitKey(address)).toBe('2001:db8:1:2::/64');
    expect(limitKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(limitKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(limitKey('::2')).toBe('0:0:0:0::/64');
    expect(limitKey('1:2:3:4:5:6:7:8')).toBe('1:2:3:4::/64');
    expect(limitKey('1:2:3::1.2.3.4')).toBe('1:2:3:0::/64');
    for (const address of ['203.0.113.9', '::1', 'unknown']) expect(limitKey(address)).toBe(address);
  });

  it('makes maxConnectionsPerAddress hold for a client that takes a new IPv6 address for each connection', () => {
    const admission = new Admission({
      maxConnections: 100,
      maxConnectionsPerAddress: 1,
      maxBytesInProgress: 1024,
      maxRooms: 10,
    });
    admission.add({ address: '2001:db8:1:2::1' } as Peer);
    expect(admission.refusal('2001:db8:1:2::2')).toMatch(/2001:db8:1:2::\/64 holds its maximum/);
    expect(admission.refusal('2001:db8:1:3::1')).toBeNull();
  });
});

describe('overHttps', () => {
  const request = (peer: string, proto?: string | string[], encrypted?: boolean) => ({
    socket: { remoteAddress: peer, encrypted },
    headers: proto === undefined ? {} : { 'x-forwarded-proto': proto as string },
  });

  it('believes X-Forwarded-Proto from a trusted proxy only, by its rightmost value', () => {
    expect(overHttps(request('127.0.0.1', 'https'), proxies)).toBe(true);
    expect(overHttps(request('::ffff:10.1.2.3', 'HTTPS'), proxies)).toBe(true);
    expect(overHttps(request('127.0.0.1', 'https, http'), proxies)).toBe(false);
    expect(overHttps(request('127.0.0.1', 'http'), proxies)).toBe(false);
    expect(overHttps(request('203.0.113.9', 'https'), proxies)).toBe(false);
    expect(overHttps(request('127.0.0.1', 'https'), null)).toBe(false);
  });

  it('is true for a TLS socket of its own, whatever the headers say', () => {
    expect(overHttps(request('203.0.113.9', 'http', true), null)).toBe(true);
  });
});
