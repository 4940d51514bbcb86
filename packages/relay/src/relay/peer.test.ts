import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { loadMeter, loopLoad, Peer } from './peer.ts';

/** A peer over a stream that stands in for its TCP socket; `ws.send` writes the text to it. */
function peerOverStream() {
  const socket = new PassThrough();
  const ws = {
    readyState: WebSocket.OPEN,
    bufferedAmount: 0,
    send: (text: string) => socket.write(text),
  } as unknown as WebSocket;
  const peer = new Peer(ws, socket, 1, { kind: 'open' }, '127.0.0.1', () => {}, 1 << 20);
  const written = () => String(socket.read() ?? '');
  return { peer, socket, written };
}

describe('Peer.sendText', () => {
  const measured = loopLoad.busy;
  let busy = false;
  beforeEach(() => {
    busy = false;
    loopLoad.busy = () => busy;
  });
  afterEach(() => {
    loopLoad.busy = measured;
  });

  it('queues pushed frames until the turn is handled, then writes them together', async () => {
    const { peer, socket, written } = peerOverStream();
    peer.sendText('a', { pushed: true });
    peer.sendText('b', { pushed: true });
    expect(socket.writableCorked).toBe(1);
    expect(written()).toBe('');
    await Promise.resolve();
    expect(socket.writableCorked).toBe(0);
    expect(written()).toBe('ab');
  });

  it('sends a reply at once, after the frames queued before it', () => {
    const { peer, socket, written } = peerOverStream();
    peer.sendText('state', { pushed: true });
    peer.sendText('reply');
    expect(socket.writableCorked).toBe(0);
    expect(written()).toBe('statereply');
  });

  it('sends a reply at once when nothing is queued', () => {
    const { peer, socket, written } = peerOverStream();
    peer.sendText('reply');
    expect(socket.writableCorked).toBe(0);
    expect(written()).toBe('reply');
  });

  it('groups replies too while the event loop is busy, and sends them in the order given', async () => {
    const { peer, socket, written } = peerOverStream();
    busy = true;
    peer.sendText('reply');
    peer.sendText('state', { pushed: true });
    expect(socket.writableCorked).toBe(1);
    expect(written()).toBe('');
    await Promise.resolve();
    expect(written()).toBe('replystate');
  });

  // The meter reads a clock and the loop's times it is given: no test waits or works for real time.
  it('counts the loop busy when it worked 90% or more of the window since it last looked, at most every 100 ms', () => {
    let clock = 1000;
    const times = { active: 0, idle: 0 };
    const meter = loadMeter(
      () => clock,
      () => ({ ...times }),
    );
    // The loop worked without a break.
    clock += 200;
    times.active += 200;
    expect(meter()).toBe(true);
    // Within 100 ms of looking, the last answer stands, whatever the loop did.
    clock += 50;
    times.idle += 50;
    expect(meter()).toBe(true);
    // It then waited most of the window.
    clock += 150;
    times.active += 20;
    times.idle += 130;
    expect(meter()).toBe(false);
    // 90% of the window is busy; 89% is not.
    clock += 100;
    times.active += 90;
    times.idle += 10;
    expect(meter()).toBe(true);
    clock += 100;
    times.active += 89;
    times.idle += 11;
    expect(meter()).toBe(false);
  });
});
