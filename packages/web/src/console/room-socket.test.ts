import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { RoomSocket } from './room-socket.ts';

/*
 * The console's room socket against a relay stand-in that joins it and then does what a test
 * says: answer nothing, or close mid-call. The page's WebSocket is `ws`'s here (same API).
 */
const server = createServer();
const wss = new WebSocketServer({ server });
let onCall: (ws: WebSocket) => void = () => {};
wss.on('connection', (ws) => {
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as { type: string; id?: string };
    if (frame.type === 'relay.join') {
      ws.send(JSON.stringify({ v: 'mvp-0.2', type: 'relay.joined', replyTo: frame.id, payload: { role: 'agent' } }));
    } else if (frame.type === 'tool.call') onCall(ws);
  });
});
let url = '';
beforeAll(async () => {
  (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function joined(): Promise<{ socket: RoomSocket; problems: string[] }> {
  const problems: string[] = [];
  const socket = new RoomSocket(
    url,
    'r-1',
    'agent',
    () => {},
    (why) => problems.push(why),
  );
  await vi.waitFor(() => expect(socket.state).toBe('open'));
  return { socket, problems };
}

describe('the console’s room socket', () => {
  it('ends a call at once, saying why, when the connection closes before the page answers', async () => {
    const { socket } = await joined();
    onCall = (ws) => ws.close(1011, 'gone');
    const answer = await socket.call('select', { itemId: 'm1' }, 'a reason');
    expect(answer).toEqual({ ok: false, message: 'the connection to the room closed before the page answered' });
  });

  it('refuses a call at once when it is not connected, instead of waiting for an answer that cannot come', async () => {
    const { socket } = await joined();
    socket.close();
    await vi.waitFor(() => expect(socket.state).toBe('closed'));
    expect(await socket.call('next', {}, 'a reason')).toEqual({ ok: false, message: 'not connected to the room' });
  });
});
