/**
 * The baselines of the relay benchmark: a `ws` server that pairs the two sockets of a room
 * (`/fwd/<room>?role=host|agent`) and forwards every frame to the other one unchanged.
 *
 * - Bare (no arguments): no parsing, validation or logging; the floor of what `ws` costs.
 * - `--same-duties <dir>`: the relay's duties and no more. Each frame is checked to be JSON on one
 *   line (`JSON.parse` of its text, and no line feed in it), written as one line to its room's
 *   file in `<dir>` with one synchronous `write(2)` before it is forwarded, and the file is flushed
 *   (`fsync`) and closed when the room empties; a frame that is not JSON closes its socket (1007).
 *
 * Run as its own process; prints the port it listens on.
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type WebSocket, WebSocketServer } from 'ws';

type Role = 'host' | 'agent';
interface Pair {
  host?: WebSocket;
  agent?: WebSocket;
  /** The room's log (same duties only). */
  fd?: number;
}
const rooms = new Map<string, Pair>();

const duties = process.argv[2] === '--same-duties' ? process.argv[3] : undefined;
if (process.argv[2] === '--same-duties' && !duties) throw new Error('--same-duties needs a folder');

function roomOf(request: IncomingMessage): { room: string; role: Role } | null {
  const url = new URL(request.url ?? '/', 'http://forwarder');
  const room = /^\/fwd\/([\w.-]+)$/.exec(url.pathname)?.[1];
  const role = url.searchParams.get('role');
  return room && (role === 'host' || role === 'agent') ? { room, role } : null;
}

/** One buffer for every line (writes are synchronous), as the relay's study log does. */
let scratch = Buffer.allocUnsafe(64 * 1024);
const LINE_FEED = 0x0a;

/** Checks that `data` is JSON on one line and writes it as one line; false when it is not JSON. */
function logLine(fd: number, data: Buffer): boolean {
  if (data.indexOf(LINE_FEED) !== -1) return false;
  try {
    JSON.parse(data.toString('utf8'));
  } catch {
    return false;
  }
  if (data.length + 1 > scratch.length) scratch = Buffer.allocUnsafe(2 * (data.length + 1));
  data.copy(scratch, 0);
  scratch[data.length] = LINE_FEED;
  const bytes = data.length + 1;
  let at = 0;
  while (at < bytes) at += writeSync(fd, scratch, at, bytes - at);
  return true;
}

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });

wss.on('connection', (ws, request) => {
  const where = roomOf(request);
  if (!where) return ws.close(1008, 'expected /fwd/<room>?role=host|agent');
  const pair = rooms.get(where.room) ?? {};
  rooms.set(where.room, pair);
  if (pair[where.role]) return ws.close(1008, `room ${where.room} already has a ${where.role}`);
  pair[where.role] = ws;
  if (duties && pair.fd === undefined) pair.fd = openSync(join(duties, `${where.room}.jsonl`), 'a');
  const other: Role = where.role === 'host' ? 'agent' : 'host';

  ws.on('message', (data: Buffer, isBinary) => {
    const to = pair[other];
    // The bench opens the host, then the agent, and only then sends: a lone frame is a bench bug.
    if (!to) return ws.close(1011, `no ${other} in room ${where.room}`);
    if (pair.fd !== undefined && !logLine(pair.fd, data)) return ws.close(1007, 'not JSON on one line');
    to.send(data, { binary: isBinary });
  });
  ws.on('error', (err) => console.error(`forwarder: ${where.role} of ${where.room}: ${err.message}`));
  ws.on('close', () => {
    delete pair[where.role];
    if (pair.host || pair.agent) return;
    rooms.delete(where.room);
    if (pair.fd !== undefined) {
      fsyncSync(pair.fd);
      closeSync(pair.fd);
    }
  });
});

wss.on('listening', () => {
  const { port } = wss.address() as AddressInfo;
  console.log(`Bench forwarder${duties ? ' (same duties)' : ''} listening on http://127.0.0.1:${port}`);
});
