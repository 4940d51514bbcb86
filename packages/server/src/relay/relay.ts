import type { IncomingMessage } from 'node:http';
import { relative, resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import {
  decodeFrame,
  type ErrorCode,
  MAX_FRAME_BYTES,
  type Message,
  type MessageOf,
  maySend,
  replyTypeOf,
  type StudyLogRecord,
} from '@usher/protocol';
import { type WebSocket, WebSocketServer } from 'ws';
import { SessionIdAllocator } from '../study-log/session-ids.ts';
import { StudyLog } from '../study-log/study-log.ts';
import { Peer } from './peer.ts';
import { Room } from './room.ts';
import { envelopeText, payloadSlice } from './wire.ts';

/** Frames above this close the connection (ws code 1009); between 1 MiB and this they get `INVALID_MESSAGE`. */
const HARD_FRAME_LIMIT = 16 * MAX_FRAME_BYTES;

/** WebSocket close code sent to a host that another host replaced. */
export const CLOSE_REPLACED = 4001;

export interface RelayOptions {
  /** Folder of the study logs; must exist. */
  logsDir: string;
  now?: () => Date;
  /** Interval of ping/pong liveness checks; a peer silent for two intervals is dropped. */
  heartbeatMs?: number;
  /** Reports problems that have no peer to tell (a socket error). */
  warn?: (line: string) => void;
}

export interface RoomStatus {
  room: string;
  host: boolean;
  agents: number;
  observers: number;
  studySession: { sessionId: string; studyId: string; participantId: string; events: number } | null;
}

type Direction = StudyLogRecord['direction'];

/** A frame as it arrived, and what it says. */
interface Inbound {
  /** The frame as received, forwarded unchanged when nothing in it changes (no re-encoding). */
  bytes: Buffer;
  message: Message;
  /** The payload's JSON: sliced from the frame when possible, else serialized from `message`. */
  payloadJson: string;
  /** The frame has exactly the envelope's known members, so it can be forwarded unchanged. */
  verbatim: boolean;
}

/**
 * The relay of external-agent-protocol §2–4 with the rules of DESIGN.md: rooms with one host and
 * any number of agents and observers, role checks, one reply per request routed back to its
 * sender, and the study log written ahead of every forwarded frame.
 */
export class Relay {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: HARD_FRAME_LIMIT });
  private readonly rooms = new Map<string, Room>();
  private readonly ids: SessionIdAllocator;
  private readonly now: () => Date;
  private readonly warn: (line: string) => void;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly peers = new WeakMap<WebSocket, Peer>();
  private peerSeq = 0;

  constructor(private readonly options: RelayOptions) {
    this.ids = new SessionIdAllocator(options.logsDir);
    this.now = options.now ?? (() => new Date());
    this.warn = options.warn ?? ((line) => console.error(line));
    this.wss.on('connection', (ws) => this.accept(ws));
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs ?? 15_000);
    this.heartbeat.unref();
  }

  /** Hands an HTTP upgrade on the agent endpoint to the relay. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(request, socket, head, (ws) => this.wss.emit('connection', ws, request));
  }

  status(): RoomStatus[] {
    return [...this.rooms.values()].map((room) => ({
      room: room.id,
      host: room.host !== null,
      agents: room.count('agent'),
      observers: room.count('observer'),
      studySession: room.study && {
        sessionId: room.study.log.sessionId,
        studyId: room.study.studyId,
        participantId: room.study.participantId,
        events: room.study.log.size,
      },
    }));
  }

  /** Ends every open study log with a `relay.shutdown` record, flushed to disk, and drops every connection. */
  close(reason = 'server stopped'): void {
    clearInterval(this.heartbeat);
    for (const room of this.rooms.values()) {
      if (!room.study) continue;
      this.log(room, 'internal', 'relay.shutdown', JSON.stringify({ reason }));
      room.study.log.close();
      room.study = null;
    }
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
  }

  private accept(ws: WebSocket): void {
    this.peerSeq += 1;
    const peer = new Peer(ws, this.peerSeq);
    this.peers.set(ws, peer);
    ws.on('message', (data, isBinary) => this.receive(peer, data as Buffer, isBinary));
    ws.on('pong', () => {
      peer.alive = true;
    });
    ws.on('error', (err) => this.warn(`relay: socket error on ${peer.name}: ${err.message}`));
    ws.on('close', () => this.leave(peer));
  }

  private beat(): void {
    for (const ws of this.wss.clients) {
      const peer = this.peers.get(ws);
      if (!peer) continue;
      if (!peer.alive) {
        ws.terminate();
        continue;
      }
      peer.alive = false;
      ws.ping();
    }
  }

  private receive(peer: Peer, data: Buffer, isBinary: boolean): void {
    if (isBinary) return this.reject(peer, 'INVALID_MESSAGE', 'frames must be text (a JSON envelope), not binary');
    if (data.length > MAX_FRAME_BYTES) {
      return this.reject(
        peer,
        'INVALID_MESSAGE',
        `frame of ${data.length} bytes exceeds the ${MAX_FRAME_BYTES}-byte limit`,
      );
    }
    const text = data.toString('utf8');
    const decoded = decodeFrame(text);
    if (!decoded.ok) return this.reject(peer, decoded.code, decoded.message, decoded.replyTo);
    const message = decoded.message;
    const slice = payloadSlice(text, decoded.raw);
    const frame: Inbound = {
      bytes: data,
      message,
      payloadJson: slice ?? JSON.stringify(message.payload),
      verbatim: slice !== undefined,
    };

    if (peer.role === null) {
      if (message.type !== 'relay.join') {
        return this.reject(peer, 'SESSION_NOT_ACTIVE', 'join a room with relay.join first', message.id);
      }
      return this.join(peer, message);
    }
    if (message.type === 'relay.join') {
      return this.reject(peer, 'INVALID_MESSAGE', `already joined room "${peer.room?.id}" as ${peer.role}`, message.id);
    }
    if (!maySend(peer.role, message.type)) {
      const article = peer.role === 'agent' ? 'an' : 'a';
      return this.reject(peer, 'INVALID_MESSAGE', `${article} ${peer.role} may not send ${message.type}`, message.id);
    }
    if (peer.role === 'host') this.fromHost(peer, frame);
    else this.fromClient(peer, frame);
  }

  private join(peer: Peer, message: MessageOf<'relay.join'>): void {
    const { role, sessionId: roomId } = message.payload;
    let room = this.rooms.get(roomId);
    if (!room) {
      room = new Room(roomId);
      this.rooms.set(roomId, room);
    }
    peer.role = role;
    peer.room = room;
    let replaced = false;
    if (role === 'host') {
      const previous = room.host;
      if (previous) {
        replaced = true;
        this.detachHost(room, 'the host was replaced before answering; send the request again');
        previous.sendText(
          envelopeText(
            'error',
            this.errorJson('SESSION_NOT_ACTIVE', 'another host joined this room and replaced this one'),
          ),
        );
        previous.room = null;
        previous.ws.close(CLOSE_REPLACED, 'replaced by another host');
      }
      room.host = peer;
    } else {
      room.clients.add(peer);
    }
    this.log(room, 'internal', 'relay.join', JSON.stringify({ role, room: roomId, replaced }), { peer: peer.name });
    const study = room.study && {
      sessionId: room.study.log.sessionId,
      studyId: room.study.studyId,
      participantId: room.study.participantId,
    };
    const reply = { role, sessionId: roomId, studySession: study, hostPresent: room.host !== null };
    peer.sendText(envelopeText('relay.joined', JSON.stringify(reply), { replyTo: message.id }));
    if (role === 'host') {
      const notice = envelopeText('relay.joined', JSON.stringify({ role: 'host', sessionId: roomId, replaced }));
      for (const client of room.clients) client.sendText(notice);
    }
  }

  private leave(peer: Peer): void {
    const room = peer.room;
    if (!room) return;
    peer.room = null;
    this.log(room, 'internal', 'relay.left', JSON.stringify({ role: peer.role }), { peer: peer.name });
    if (room.host === peer) {
      room.host = null;
      this.detachHost(room, 'the host left before answering');
      const notice = envelopeText('error', this.errorJson('SESSION_NOT_ACTIVE', `the host left room "${room.id}"`));
      for (const client of room.clients) client.sendText(notice);
    } else {
      room.clients.delete(peer);
    }
    if (room.idle) this.rooms.delete(room.id);
  }

  /** Answers every request still waiting on a host that is going away, so none goes unanswered. */
  private detachHost(room: Room, why: string): void {
    for (const [relayId, pending] of room.pending) {
      room.pending.delete(relayId);
      this.log(room, 'internal', 'error', this.errorJson('SESSION_NOT_ACTIVE', why), {
        replyTo: pending.originalId,
        peer: pending.peer.name,
      });
      pending.peer.sendText(
        envelopeText('error', this.errorJson('SESSION_NOT_ACTIVE', why), { replyTo: pending.originalId }),
      );
    }
  }

  private fromClient(peer: Peer, frame: Inbound): void {
    const { message, payloadJson } = frame;
    const room = peer.room as Room;
    const host = room.host;
    if (message.type === 'session.start') return this.startSession(peer, room, message);
    if (!room.study) {
      return this.reject(
        peer,
        'SESSION_NOT_ACTIVE',
        'no study session is active; send session.start first',
        message.id,
      );
    }
    if (!host) return this.reject(peer, 'SESSION_NOT_ACTIVE', `no host in room "${room.id}"`, message.id);

    if (!this.log(room, 'in', message.type, payloadJson, { id: message.id, peer: peer.name })) {
      return this.reject(peer, 'TOOL_EXECUTION_FAILED', 'the study log could not be written', message.id);
    }
    if (replyTypeOf(message.type) === undefined) {
      // agent.message: the host only answers an invalid one, and the relay has checked it already.
      host.sendText(frame.verbatim ? frame.bytes : envelopeText(message.type, payloadJson, { id: message.id }));
      return;
    }
    const key = this.requestKey(room, message.id);
    room.pending.set(key, { peer, originalId: message.id, type: message.type });
    const unchanged = frame.verbatim && key === message.id;
    host.sendText(unchanged ? frame.bytes : envelopeText(message.type, payloadJson, { id: key }));
  }

  /**
   * The id a request carries to the host: the sender's own when no other pending request of the
   * room uses it (so the frame goes on unchanged), else one the relay makes up.
   */
  private requestKey(room: Room, id: string | undefined): string {
    if (id !== undefined && !room.pending.has(id)) return id;
    let key = room.nextRequestId();
    while (room.pending.has(key)) key = room.nextRequestId();
    return key;
  }

  private startSession(peer: Peer, room: Room, message: MessageOf<'session.start'>): void {
    const { studyId, participantId } = message.payload;
    if (!room.host) return this.reject(peer, 'SESSION_NOT_ACTIVE', `no host in room "${room.id}"`, message.id);
    const active = room.study;
    if (active) {
      if (active.studyId !== studyId || active.participantId !== participantId) {
        return this.reject(
          peer,
          'INVALID_MESSAGE',
          `study session ${active.log.sessionId} (${active.studyId}/${active.participantId}) is active in room "${room.id}"; end it with session.end first`,
          message.id,
        );
      }
      // The same study and participant again (an agent reconnecting): the session goes on.
      const reply = JSON.stringify({ sessionId: active.log.sessionId });
      this.log(room, 'in', message.type, JSON.stringify(message.payload), { id: message.id, peer: peer.name });
      this.log(room, 'out', 'session.started', reply, { replyTo: message.id, peer: peer.name });
      peer.sendText(envelopeText('session.started', reply, { replyTo: message.id }));
      return;
    }
    let log: StudyLog;
    try {
      const { sessionId, path, fd } = this.ids.allocate(this.now());
      log = new StudyLog(sessionId, path, fd, this.now);
    } catch (err) {
      this.warn(`relay: cannot create a study log in ${this.options.logsDir}: ${(err as Error).message}`);
      return this.reject(peer, 'TOOL_EXECUTION_FAILED', 'the study log could not be created', message.id);
    }
    room.study = { log, studyId, participantId };
    this.log(room, 'in', message.type, JSON.stringify(message.payload), { id: message.id, peer: peer.name });
    const key = this.requestKey(room, message.id);
    room.pending.set(key, { peer, originalId: message.id, type: message.type });
    const forwarded = JSON.stringify({ ...message.payload, sessionId: log.sessionId });
    room.host.sendText(envelopeText(message.type, forwarded, { id: key }));
  }

  private fromHost(host: Peer, frame: Inbound): void {
    const { message } = frame;
    const room = host.room as Room;
    if (message.replyTo === undefined) {
      if (message.type !== 'state.updated' && message.type !== 'user.message' && message.type !== 'error') {
        return this.reject(host, 'INVALID_MESSAGE', `${message.type} must answer a request (replyTo is missing)`);
      }
      if (message.type === 'state.updated' && message.payload.source === 'user' && message.payload.action) {
        this.log(room, 'internal', 'participant.action', JSON.stringify(message.payload.action), { peer: host.name });
      }
      if (!this.log(room, 'out', message.type, frame.payloadJson)) {
        return this.reject(host, 'TOOL_EXECUTION_FAILED', 'the study log could not be written');
      }
      const text = frame.verbatim ? frame.bytes : envelopeText(message.type, frame.payloadJson);
      for (const client of room.clients) client.sendText(text);
      return;
    }

    const pending = room.pending.get(message.replyTo);
    if (!pending) {
      return this.reject(host, 'INVALID_MESSAGE', `replyTo "${message.replyTo}" answers no pending request`);
    }
    const expected = replyTypeOf(pending.type);
    if (message.type !== expected && message.type !== 'error') {
      return this.reject(
        host,
        'INVALID_MESSAGE',
        `${pending.type} is answered with ${expected} or error, not ${message.type}`,
      );
    }
    room.pending.delete(message.replyTo);

    // The relay owns the study session: its id and its log file are the relay's to report.
    const study = room.study;
    let payloadJson = frame.payloadJson;
    let rewritten = false;
    if (message.type === 'session.started' && study) {
      payloadJson = JSON.stringify({ sessionId: study.log.sessionId });
      rewritten = true;
    } else if (message.type === 'session.ended' && study) {
      const logFile = this.displayPath(study.log.path);
      payloadJson = JSON.stringify({ sessionId: study.log.sessionId, logFile, stateReset: message.payload.stateReset });
      rewritten = true;
    }
    this.log(room, 'out', message.type, payloadJson, { replyTo: pending.originalId, peer: pending.peer.name });
    if (message.type === 'session.ended' && study) {
      // session.ended goes out only once the log is complete and on disk.
      study.log.close();
      room.study = null;
    }
    const unchanged = frame.verbatim && !rewritten && pending.originalId === message.replyTo;
    pending.peer.sendText(
      unchanged ? frame.bytes : envelopeText(message.type, payloadJson, { replyTo: pending.originalId }),
    );
  }

  private reject(peer: Peer, code: ErrorCode, message: string, replyTo?: string): void {
    const payloadJson = this.errorJson(code, message);
    if (peer.room) this.log(peer.room, 'internal', 'error', payloadJson, { replyTo, peer: peer.name });
    peer.sendText(envelopeText('error', payloadJson, { replyTo }));
  }

  private errorJson(code: ErrorCode, message: string): string {
    return JSON.stringify({ code, message });
  }

  /** Appends to the room's study log when a study session is active; false when the write failed. */
  private log(
    room: Room,
    direction: Direction,
    type: string,
    payloadJson: string,
    options: { id?: string | undefined; replyTo?: string | undefined; peer?: string } = {},
  ): boolean {
    if (!room.study) return true;
    try {
      room.study.log.append(direction, type, payloadJson, options);
      return true;
    } catch (err) {
      this.warn(`relay: study log ${room.study.log.sessionId}: ${(err as Error).message}`);
      return false;
    }
  }

  private displayPath(path: string): string {
    const rel = relative(process.cwd(), resolve(path));
    return rel.startsWith('..') ? resolve(path) : rel;
  }
}
