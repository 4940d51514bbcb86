import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocketServer } from 'ws';
import { SyncConnection } from './connection.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('SyncConnection', () => {
  it('drops a connection whose orchestrator no longer answers pings, redials, and opens again', async () => {
    // A peer that accepts the connection and then never answers a ping (a host gone without a FIN).
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', autoPong: false });
    await new Promise((resolve) => wss.once('listening', resolve));
    closers.push(
      () =>
        new Promise((resolve) => {
          for (const ws of wss.clients) ws.terminate();
          wss.close(() => resolve());
        }),
    );
    let accepted = 0;
    wss.on('connection', () => {
      accepted += 1;
    });
    const logs: string[] = [];
    let opened = 0;
    const connection = new SyncConnection({
      url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/sync`,
      token: 't',
      onOpen: () => {
        opened += 1;
      },
      onFrame: () => {},
      log: (line) => logs.push(line),
      backoffMs: { first: 20, max: 40 },
      heartbeatMs: 50,
    });
    closers.push(() => connection.close());
    connection.start();

    await vi.waitFor(() => expect(opened).toBeGreaterThanOrEqual(2), { timeout: 10_000, interval: 20 });
    expect(accepted).toBeGreaterThanOrEqual(2);
    expect(logs.join('\n')).toMatch(/stopped answering pings/);
  });
});
