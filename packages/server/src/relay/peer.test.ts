import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { loopLoad, Peer } from './peer.ts';

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

  it('measures the loop as busy after it worked without a break, and as not busy after it waited', async () => {
    measured();
    const until = performance.now() + 200;
    while (performance.now() < until) {
      // Working: the loop takes no event meanwhile.
    }
    expect(measured()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(measured()).toBe(false);
  });
});
