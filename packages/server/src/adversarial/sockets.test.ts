import { EventEmitter } from 'node:events';
import net from 'node:net';
import { SocketLimits, TrustedProxies } from '@usher/relay';
import { describe, expect, it, vi } from 'vitest';
import { startTestServer } from '../testing/index.ts';

/*
 * The relay counted WebSockets at the upgrade, but a TCP connection that never upgrades (a request
 * whose headers never end, or a socket that sends nothing) was held by no limit: probing a running
 * server, 3,000 such sockets from one address took 3,000 descriptors within a second and held them
 * for Node's 60 s header timeout, again and again. At a 1,024-descriptor limit nothing else could
 * connect. Every accepted socket now counts toward `maxSockets`, and toward
 * `maxSocketsPerAddress` unless it comes from loopback or a trusted proxy.
 */

/** A socket as the server's `connection` event gives it, from `remoteAddress`. */
function fakeSocket(remoteAddress: string) {
  const socket = Object.assign(new EventEmitter(), {
    remoteAddress,
    destroyed: false,
    destroy() {
      socket.destroyed = true;
      socket.emit('close');
      return socket;
    },
  });
  return socket;
}

/** Opens a raw TCP connection; resolves once it is connected (or already closed), with a promise of its close. */
function rawSocket(port: number): Promise<{ socket: net.Socket; closed: () => boolean; close: Promise<void> }> {
  return new Promise((resolve) => {
    let closed = false;
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    const close = new Promise<void>((done) =>
      socket.on('close', () => {
        closed = true;
        done();
      }),
    );
    const raw = { socket, closed: () => closed, close };
    socket.resume();
    socket.once('connect', () => resolve(raw));
    socket.once('close', () => resolve(raw));
  });
}

describe('TCP connections that never become WebSockets', () => {
  it('are held to maxSocketsPerAddress per address (an IPv6 client by its /64), and freed as they close', () => {
    const warnings: string[] = [];
    const limits = new SocketLimits({ maxSockets: 100, maxSocketsPerAddress: 2 }, null, (l) => warnings.push(l));
    const a = [fakeSocket('198.51.100.7'), fakeSocket('::ffff:198.51.100.7')];
    for (const s of a) expect(limits.accept(s)).toBe(true);
    const third = fakeSocket('198.51.100.7');
    expect(limits.accept(third)).toBe(false);
    expect(third.destroyed).toBe(true);
    expect(warnings.join('\n')).toMatch(/198\.51\.100\.7 holds its maximum of 2 connections \(maxSocketsPerAddress\)/);
    // Another address is not held back; a new address in the same /64 is.
    expect(limits.accept(fakeSocket('198.51.100.8'))).toBe(true);
    expect(limits.accept(fakeSocket('2001:db8:1:2::1'))).toBe(true);
    expect(limits.accept(fakeSocket('2001:db8:1:2::2'))).toBe(true);
    expect(limits.accept(fakeSocket('2001:db8:1:2::3'))).toBe(false);
    a[0]?.destroy();
    expect(limits.accept(fakeSocket('198.51.100.7'))).toBe(true);
    expect(limits.open).toBe(5);
  });

  it('counts loopback and trusted proxies toward maxSockets only, which holds for everyone', () => {
    const limits = new SocketLimits(
      { maxSockets: 4, maxSocketsPerAddress: 1 },
      new TrustedProxies(['10.0.0.0/8']),
      () => {},
    );
    expect(limits.accept(fakeSocket('127.0.0.1'))).toBe(true);
    expect(limits.accept(fakeSocket('::1'))).toBe(true);
    expect(limits.accept(fakeSocket('10.1.2.3'))).toBe(true);
    expect(limits.accept(fakeSocket('10.1.2.3'))).toBe(true);
    expect(limits.accept(fakeSocket('127.0.0.1'))).toBe(false);
  });

  it('are closed at once past maxSockets on a running server, which answers again once they go', async () => {
    const warnings: string[] = [];
    const server = await startTestServer({ limits: { maxSockets: 3 }, warn: (l) => warnings.push(l) });
    const held: Awaited<ReturnType<typeof rawSocket>>[] = [];
    for (let i = 0; i < 3; i++) held.push(await rawSocket(server.port));
    // The server takes connections in the order they came: the fourth is closed, the first three held.
    const refused = await rawSocket(server.port);
    await refused.close;
    expect(held.every((h) => !h.closed())).toBe(true);
    expect(warnings.join('\n')).toMatch(/maxSockets/);
    for (const h of held) h.socket.destroy();
    // Once the server has seen them go (no clock here: asked again until it answers).
    await vi.waitFor(
      async () => {
        const health = await fetch(`${server.url}/healthz`, { headers: { Connection: 'close' } });
        expect(health.status).toBe(200);
      },
      { timeout: 5000, interval: 20 },
    );
  });
});
