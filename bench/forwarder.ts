/**
 * The baseline of the relay benchmark: a bare `ws` server that pairs the two sockets of a room
 * (`/fwd/<room>?role=host|agent`) and forwards every frame to the other one unchanged, with no
 * parsing, validation or logging. Run as its own process; prints the port it listens on.
 */
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

type Role = 'host' | 'agent';
const rooms = new Map<string, Partial<Record<Role, WebSocket>>>();

function roomOf(request: IncomingMessage): { room: string; role: Role } | null {
  const url = new URL(request.url ?? '/', 'http://forwarder');
  const room = /^\/fwd\/([\w.-]+)$/.exec(url.pathname)?.[1];
  const role = url.searchParams.get('role');
  return room && (role === 'host' || role === 'agent') ? { room, role } : null;
}

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });

wss.on('connection', (ws, request) => {
  const where = roomOf(request);
  if (!where) return ws.close(1008, 'expected /fwd/<room>?role=host|agent');
  const pair = rooms.get(where.room) ?? {};
  rooms.set(where.room, pair);
  if (pair[where.role]) return ws.close(1008, `room ${where.room} already has a ${where.role}`);
  pair[where.role] = ws;
  const other: Role = where.role === 'host' ? 'agent' : 'host';

  ws.on('message', (data: Buffer, isBinary) => {
    const to = pair[other];
    // The bench opens the host, then the agent, and only then sends: a lone frame is a bench bug.
    if (!to) return ws.close(1011, `no ${other} in room ${where.room}`);
    to.send(data, { binary: isBinary });
  });
  ws.on('error', (err) => console.error(`forwarder: ${where.role} of ${where.room}: ${err.message}`));
  ws.on('close', () => {
    delete pair[where.role];
    if (!pair.host && !pair.agent) rooms.delete(where.room);
  });
});

wss.on('listening', () => {
  const { port } = wss.address() as AddressInfo;
  console.log(`Bench forwarder listening on http://127.0.0.1:${port}`);
});
