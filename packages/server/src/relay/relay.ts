import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { relative, resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import {
  capText,
  type ErrorCode,
  MAX_ERROR_TEXT,
  MAX_FRAME_BYTES,
  type MessageOf,
  maySend,
  replyToOf,
  replyTypeOf,
  type StudyLogRecord,
} from '@usher/protocol';
import { type WebSocket, WebSocketServer } from 'ws';
import { type Capability, joinRefusal } from '../access/capabilities.ts';
import { clientAddress, type TrustedProxies } from '../access/client-address.ts';
import { SessionIdAllocator } from '../study-log/session-ids.ts';
import { type LogFileIo, StudyLog } from '../study-log/study-log.ts';
import { Admission } from './admission.ts';
import { describeFault, HeldWarnings } from './faults.ts';
import { uiSpecStage } from './host-scan.ts';
import { type Inbound, loggedPayload, readFrame } from './inbound.ts';
import { DEFAULT_LIMITS, type RelayLimits } from './limits.ts';
import { Peer } from './peer.ts';
import { Room } from './room.ts';
import { envelopeText } from './wire.ts';

/** Frames above this close the connection (ws code 1009); between 1 MiB and this they get `INVALID_MESSAGE`. */
const HARD_FRAME_LIMIT = 16 * MAX_FRAME_BYTES;

/** WebSocket close code sent to a host that another host replaced. */
export const CLOSE_REPLACED = 4001;
/** Close codes of the limits (RFC 6455 §7.4.1). */
const CLOSE_POLICY = 1008;
const CLOSE_TRY_LATER = 1013;

export interface RelayOptions {
  /** Folder of the study logs; must exist. */
  logsDir: string;
  now?: () => Date;
  /** Limits that differ from {@link DEFAULT_LIMITS}. */
  limits?: Partial<RelayLimits>;
  /** Reports what has no peer to tell: a socket error, a limit that closed something, a fault. */
  warn?: (line: string) => void;
  /** The study logs' file calls (tests play a full disk with it). */
  logIo?: LogFileIo;
  /** Told when a study session is closed because its room had no host for `idleSessionMs` (the agent there can stop). */
  onSessionIdle?: (room: string) => void;
  /**
   * Told when what {@link Relay.status} says of a room changes: a peer joins or leaves, its stage
   * changes, its study session opens or closes (the console's live view; called often, keep it cheap).
   */
  onRoomChange?: (room: string) => void;
  /** Reverse proxies whose `X-Forwarded-For` names the client the per-address limits count (see {@link clientAddress}). */
  trustedProxies?: TrustedProxies | null;
}

export interface RoomStatus {
  room: string;
  host: boolean;
  agents: number;
  observers: number;
  studySession: { sessionId: string; studyId: string; participantId: string; events: number } | null;
  /** The booking stage the host's last state shows, or null. */
  stage: string | null;
}

type Direction = StudyLogRecord['direction'];

/**
 * The relay of external-agent-protocol §2–4 with the rules of DESIGN.md: rooms with one host and
 * any number of agents and observers, capabilities checked at the join, role checks, one reply per
 * request routed back to its sender (or an error when its host never answers), the study log
 * written ahead of every forwarded frame, and the limits of {@link RelayLimits}. No frame can
 * throw out of it: a fault in a handler is logged and answered, and the relay goes on.
 */
export class Relay {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: HARD_FRAME_LIMIT });
  private readonly rooms = new Map<string, Room>();
  private readonly ids: SessionIdAllocator;
  private readonly now: () => Date;
  private readonly warn: (line: string) => void;
  private readonly limits: RelayLimits;
  private readonly admission: Admission;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly sweeper: NodeJS.Timeout;
  private readonly peers = new WeakMap<WebSocket, Peer>();
  private peerSeq = 0;
  private closed = false;
  private readonly warnings: HeldWarnings;

  constructor(private readonly options: RelayOptions) {
    this.ids = new SessionIdAllocator(options.logsDir);
    this.now = options.now ?? (() => new Date());
    this.warn = options.warn ?? ((line) => console.error(line));
    this.warnings = new HeldWarnings(this.warn, this.now);
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.admission = new Admission(this.limits);
    this.heartbeat = setInterval(() => this.guard('heartbeat', () => this.beat()), this.limits.heartbeatMs);
    this.heartbeat.unref();
    const sweepMs = Math.max(10, Math.min(1000, this.limits.requestTimeoutMs / 4, this.limits.idleSessionMs / 4));
    this.sweeper = setInterval(() => this.guard('sweep', () => this.sweep()), sweepMs);
    this.sweeper.unref();
  }

  /**
   * Hands an HTTP upgrade on the agent endpoint to the relay, for a connection whose credential
   * was checked (`capability`). Refuses it with HTTP 503 when a connection limit is reached.
   */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, capability: Capability): void {
    const address = clientAddress(request, this.options.trustedProxies ?? null);
    const refusal = this.closed ? 'the server is stopping' : this.admission.refusal(address);
    if (refusal) {
      this.warnings.once(`refused ${address}`, `relay: refused a connection from ${address}: ${refusal}`);
      // Ended and then destroyed: a client that never closes its side cannot keep the descriptor.
      socket.end(
        `HTTP/1.1 503 Service Unavailable\r\nRetry-After: 10\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${refusal}\n`,
        () => socket.destroy(),
      );
      return;
    }
    // Open mode has no credentials: the console names itself (the peer believes it only there),
    // which only changes how the log names it.
    const console = new URL(request.url ?? '/', 'http://relay').searchParams.get('as') === 'experimenter';
    this.wss.handleUpgrade(request, socket, head, (ws) =>
      this.guard('accept', () => this.accept(ws, capability, address, socket, console)),
    );
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
      stage: room.stage,
    }));
  }

  /**
   * Opens a study session in `roomId` on the server's own account (study mode: a participant's
   * task starts, whatever the condition, so a task without an agent is logged too). Its first
   * record, `study.task`, says whose task it is. An agent's `session.start` for the same study and
   * participant joins it. Returns the session id; a session already open there goes on.
   */
  openStudySession(
    roomId: string,
    task: {
      studyId: string;
      participantId: string;
      conditionId: string;
      taskId: string;
      /** Opened again mid-task (after a restart, or a session closed for idleness). */
      resumed?: boolean;
      page?: object;
    },
  ): string {
    let room = this.rooms.get(roomId);
    if (!room) {
      room = new Room(roomId);
      room.hostlessSince = this.now().getTime();
      this.rooms.set(roomId, room);
    }
    if (room.study) return room.study.log.sessionId;
    let allocated: ReturnType<SessionIdAllocator['allocate']>;
    try {
      allocated = this.ids.allocate(this.now());
    } catch (err) {
      if (room.idle) this.rooms.delete(room.id);
      throw err;
    }
    const { sessionId, path, fd } = allocated;
    room.study = {
      log: new StudyLog(sessionId, path, fd, this.now, this.options.logIo),
      studyId: task.studyId,
      participantId: task.participantId,
    };
    if (!this.log(room, 'internal', 'study.task', JSON.stringify(task))) {
      this.endStudy(room);
      if (room.idle) this.rooms.delete(room.id);
      throw new Error('the study log could not be written');
    }
    this.changed(room);
    return sessionId;
  }

  /** Whether a study session is open in `roomId`. */
  hasStudySession(roomId: string): boolean {
    return this.rooms.get(roomId)?.study != null;
  }

  /** Ends the study session open in `roomId` (a participant's task ended), with a record saying why; false when none was open. */
  closeStudySession(roomId: string, reason: string, page?: object): boolean {
    const room = this.rooms.get(roomId);
    if (!room?.study) return false;
    const record = { reason: capText(reason, MAX_ERROR_TEXT), ...(page && { page }) };
    this.log(room, 'internal', 'study.task-ended', JSON.stringify(record));
    this.endStudy(room);
    if (room.idle) this.rooms.delete(room.id);
    return true;
  }

  /**
   * Appends a record of the server's own to the study session open in `roomId` (direction
   * `internal`): what an experimenter did from the console, and who. False when no session is open
   * or the write failed (reported).
   */
  record(roomId: string, type: string, payload: Record<string, unknown>): boolean {
    const room = this.rooms.get(roomId);
    if (!room?.study) return false;
    return this.log(room, 'internal', type, JSON.stringify(payload));
  }

  /** The payload (JSON text) of the last `state.updated` the host of `roomId` sent, or null. */
  lastState(roomId: string): string | null {
    return this.rooms.get(roomId)?.lastState ?? null;
  }

  /** Open connections and the bytes of frames in progress: for health checks and tests. */
  load(): { connections: number; bytesInProgress: number; rooms: number } {
    return {
      connections: this.admission.connections,
      bytesInProgress: this.admission.inProgress,
      rooms: this.rooms.size,
    };
  }

  /**
   * Ends every open study log with a `relay.shutdown` record, flushed to disk, and drops every
   * connection. Safe to call from a fatal-error handler: a log that cannot be written is reported
   * and the others are still closed.
   */
  close(reason = 'server stopped'): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    clearInterval(this.sweeper);
    for (const room of this.rooms.values()) {
      if (!room.study) continue;
      this.log(room, 'internal', 'relay.shutdown', JSON.stringify({ reason: capText(reason, MAX_ERROR_TEXT) }));
      this.endStudy(room);
    }
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
  }

  /** Runs a handler so that no fault escapes to the process: it is reported and the relay goes on. */
  private guard(what: string, run: () => void, peer?: Peer, replyTo?: string): void {
    try {
      run();
    } catch (err) {
      // The same fault again (a stranger repeating the frame that overflowed the stack) is
      // reported with its whole stack at most once per 10 s, with a count of those held back.
      const { kind, stack } = describeFault(err);
      this.warnings.once(`fault ${what} ${kind}`, `relay: fault in ${what}${peer ? ` (${peer.name})` : ''}: ${stack}`);
      if (peer) {
        try {
          this.reject(
            peer,
            'TOOL_EXECUTION_FAILED',
            'the relay failed to handle this frame; it was not forwarded',
            replyTo,
          );
        } catch {
          // The fault is reported above; the peer may be gone.
        }
      }
    }
  }

  private accept(ws: WebSocket, capability: Capability, address: string, socket: Duplex, console: boolean): void {
    this.peerSeq += 1;
    const peer = new Peer(
      ws,
      socket,
      this.peerSeq,
      capability,
      address,
      (p) => this.tooSlow(p),
      this.limits.maxBufferedBytes,
      console,
    );
    this.peers.set(ws, peer);
    this.admission.add(peer);
    peer.joinTimer = setTimeout(() => {
      if (peer.role !== null) return;
      this.warn(
        `relay: closed ${peer.name} from ${address}: no relay.join within ${this.limits.joinTimeoutMs} ms (joinTimeoutMs)`,
      );
      ws.close(CLOSE_POLICY, 'join a room first');
      setTimeout(() => ws.terminate(), 1000).unref();
    }, this.limits.joinTimeoutMs);
    peer.joinTimer.unref();
    socket.on('data', (chunk: Buffer) => {
      const evict = this.admission.received(peer, chunk.length);
      if (evict) this.evict(evict);
    });
    ws.on('message', (data, isBinary) => {
      this.admission.frameDone(peer);
      this.guard('receive', () => this.receive(peer, data as Buffer, isBinary), peer);
    });
    // Control frames may come between the fragments of a message: they do not end the frame in progress.
    ws.on('pong', (data) => {
      // Only the answer to our own ping counts: an unsolicited pong proves nothing.
      if (peer.pingNonce && data.equals(peer.pingNonce)) peer.alive = true;
    });
    ws.on('error', (err) => this.warn(`relay: socket error on ${peer.name}: ${err.message}`));
    ws.on('close', () => {
      if (peer.joinTimer) clearTimeout(peer.joinTimer);
      this.admission.remove(peer);
      this.guard('leave', () => this.leave(peer));
    });
  }

  private beat(): void {
    for (const ws of this.wss.clients) {
      const peer = this.peers.get(ws);
      if (!peer) continue;
      if (!peer.alive) {
        this.closedByLimit(peer, 'it did not answer the last ping', null);
        ws.terminate();
        continue;
      }
      peer.alive = false;
      peer.pingNonce = randomBytes(8);
      ws.ping(peer.pingNonce);
    }
  }

  /** Answers requests their hosts left unanswered, and closes study sessions of rooms left empty. */
  private sweep(): void {
    const now = this.now().getTime();
    for (const room of this.rooms.values()) {
      for (const [key, pending] of room.pending) {
        if (now - pending.sentAt < this.limits.requestTimeoutMs) continue;
        room.pending.delete(key);
        const why = `the host did not answer ${pending.type} within ${this.limits.requestTimeoutMs} ms`;
        this.answerError(room, pending, 'TOOL_EXECUTION_FAILED', why);
      }
      // A session whose page (the host) has been gone that long is over, whoever else waits there.
      const since = room.hostlessSince;
      if (room.study && room.host === null && since !== null && now - since >= this.limits.idleSessionMs) {
        const minutes = Math.round(this.limits.idleSessionMs / 60_000);
        const reason = `room "${room.id}" had no host for ${minutes >= 1 ? `${minutes} min` : `${this.limits.idleSessionMs} ms`} (idleSessionMs)`;
        this.log(room, 'internal', 'relay.session-closed', JSON.stringify({ reason }));
        this.warn(`relay: closed study session ${room.study.log.sessionId}: ${reason}`);
        this.endStudy(room);
        if (room.idle) this.rooms.delete(room.id);
        this.options.onSessionIdle?.(room.id);
      }
    }
  }

  private receive(peer: Peer, data: Buffer, isBinary: boolean): void {
    if (peer.closing) return;
    if (isBinary) return this.reject(peer, 'INVALID_MESSAGE', 'frames must be text (a JSON envelope), not binary');
    if (data.length > MAX_FRAME_BYTES) return this.oversized(peer, data);
    const read = readFrame(data, peer.role === 'host');
    if (!read.ok) {
      this.reject(peer, read.code, read.message, read.replyTo);
      // A refused reply still ends its request: the agent that asked hears why, not its own timeout.
      if (read.answers !== undefined) this.refusedReply(peer, read.answers, read.message);
      return;
    }
    const frame = read.frame;
    const message = frame.message;
    // A host's frame the scan accepted is one a host may send: it goes straight on.
    if (read.scanned) return this.fromHost(peer, frame);

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

  /** A frame over the 1 MiB cap: refused; when it is a host's reply, its requester gets an error instead of silence. */
  private oversized(peer: Peer, data: Buffer): void {
    const why = `frame of ${data.length} bytes exceeds the ${MAX_FRAME_BYTES}-byte limit`;
    this.reject(peer, 'INVALID_MESSAGE', why);
    const room = peer.room;
    if (peer.role !== 'host' || !room) return;
    // Searched in the bytes, so a 16 MiB frame is not decoded whole for it.
    const at = data.indexOf('"replyTo"');
    const replyTo = at < 0 ? undefined : replyToOf(data.subarray(at, at + 200).toString('utf8'));
    const pending = replyTo === undefined ? undefined : room.pending.get(replyTo);
    if (!pending || replyTo === undefined) return;
    room.pending.delete(replyTo);
    this.answerError(room, pending, 'TOOL_EXECUTION_FAILED', `the host's reply was too large to forward (${why})`);
  }

  /** A host's reply the relay refused: its requester gets an error saying so. */
  private refusedReply(host: Peer, replyTo: string, why: string): void {
    const room = host.room;
    const pending = room?.pending.get(replyTo);
    if (!room || !pending) return;
    room.pending.delete(replyTo);
    this.answerError(room, pending, 'TOOL_EXECUTION_FAILED', `the host's reply was refused by the relay: ${why}`);
  }

  private join(peer: Peer, message: MessageOf<'relay.join'>): void {
    const { role, sessionId: roomId } = message.payload;
    const refusal = joinRefusal(peer.capability, role, roomId);
    if (refusal) {
      this.warnings.once(
        `refused join ${peer.address}`,
        `relay: refused ${peer.name} from ${peer.address} joining room "${roomId}" as ${role}: ${refusal}`,
      );
      this.reject(peer, 'INVALID_MESSAGE', `not allowed: ${refusal}`, message.id);
      peer.ws.close(CLOSE_POLICY, 'not allowed');
      return;
    }
    let room = this.rooms.get(roomId);
    if (!room) {
      if (this.rooms.size >= this.limits.maxRooms) {
        const why = `the server holds its maximum of ${this.limits.maxRooms} rooms (maxRooms)`;
        this.warn(`relay: refused ${peer.name} a new room "${roomId}": ${why}`);
        this.reject(peer, 'SESSION_NOT_ACTIVE', why, message.id);
        peer.ws.close(CLOSE_TRY_LATER, 'too many rooms');
        return;
      }
      room = new Room(roomId);
      this.rooms.set(roomId, room);
    }
    if (peer.joinTimer) clearTimeout(peer.joinTimer);
    peer.role = role;
    peer.room = room;
    if (role === 'host') room.hostlessSince = null;
    else if (room.host === null && room.hostlessSince === null) room.hostlessSince = this.now().getTime();
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
      for (const client of room.clients) client.sendText(notice, { pushed: true });
    }
    this.changed(room);
  }

  private leave(peer: Peer): void {
    const room = peer.room;
    if (!room) return;
    peer.room = null;
    this.log(room, 'internal', 'relay.left', JSON.stringify({ role: peer.role }), { peer: peer.name });
    if (room.host === peer) {
      room.host = null;
      room.hostlessSince = this.now().getTime();
      this.detachHost(room, 'the host left before answering');
      const notice = envelopeText('error', this.errorJson('SESSION_NOT_ACTIVE', `the host left room "${room.id}"`));
      for (const client of room.clients) client.sendText(notice, { pushed: true });
    } else {
      room.clients.delete(peer);
      // Its requests stay pending: the host's answers still count (a session.end sent just before
      // leaving still ends the session and completes its log); they reach no one, which is harmless.
    }
    if (room.idle) this.rooms.delete(room.id);
    this.changed(room);
  }

  /** Answers every request still waiting on a host that is going away, so none goes unanswered. */
  private detachHost(room: Room, why: string): void {
    for (const [relayId, pending] of room.pending) {
      room.pending.delete(relayId);
      this.answerError(room, pending, 'SESSION_NOT_ACTIVE', why);
    }
  }

  /** Answers a pending request with an error the relay makes, logged. */
  private answerError(
    room: Room,
    pending: { peer: Peer; originalId: string | undefined },
    code: ErrorCode,
    why: string,
  ): void {
    const payloadJson = this.errorJson(code, why);
    this.log(room, 'internal', 'error', payloadJson, { replyTo: pending.originalId, peer: pending.peer.name });
    pending.peer.sendText(envelopeText('error', payloadJson, { replyTo: pending.originalId }));
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

    const logged = this.log(room, 'in', message.type, payloadJson, { id: message.id, peer: peer.name });
    // session.end goes on all the same: the host resets, and its reply frees the room and says what failed.
    if (!logged && message.type !== 'session.end') {
      return this.reject(
        peer,
        'TOOL_EXECUTION_FAILED',
        'the study log could not be written; nothing was forwarded',
        message.id,
      );
    }
    if (replyTypeOf(message.type) === undefined) {
      // agent.message: the host only answers an invalid one, and the relay has checked it already.
      host.sendText(frame.verbatim ? frame.bytes : envelopeText(message.type, payloadJson, { id: message.id }));
      return;
    }
    const key = this.requestKey(room, message.id);
    room.pending.set(key, { peer, originalId: message.id, type: message.type, sentAt: this.now().getTime() });
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
      const logged =
        this.log(room, 'in', message.type, JSON.stringify(message.payload), { id: message.id, peer: peer.name }) &&
        this.log(room, 'out', 'session.started', reply, { replyTo: message.id, peer: peer.name });
      if (!logged) {
        return this.reject(peer, 'TOOL_EXECUTION_FAILED', 'the study log could not be written; try again', message.id);
      }
      peer.sendText(envelopeText('session.started', reply, { replyTo: message.id }));
      return;
    }
    let log: StudyLog;
    try {
      const { sessionId, path, fd } = this.ids.allocate(this.now());
      log = new StudyLog(sessionId, path, fd, this.now, this.options.logIo);
    } catch (err) {
      this.warn(`relay: cannot create a study log in ${this.options.logsDir}: ${(err as Error).message}`);
      return this.reject(peer, 'TOOL_EXECUTION_FAILED', 'the study log could not be created', message.id);
    }
    room.study = { log, studyId, participantId };
    this.changed(room);
    if (!this.log(room, 'in', message.type, JSON.stringify(message.payload), { id: message.id, peer: peer.name })) {
      this.endStudy(room);
      return this.reject(peer, 'TOOL_EXECUTION_FAILED', 'the study log could not be written', message.id);
    }
    const key = this.requestKey(room, message.id);
    room.pending.set(key, { peer, originalId: message.id, type: message.type, sentAt: this.now().getTime() });
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
      if (message.type === 'state.updated') this.stageOf(room, uiSpecStage(message.payload));
      if (message.type === 'state.updated' && message.payload.source === 'user' && message.payload.action) {
        this.log(room, 'internal', 'participant.action', JSON.stringify(message.payload.action), { peer: host.name });
      }
      const { payloadJson, verbatim } = this.capped(frame);
      if (!this.log(room, 'out', message.type, loggedPayload(frame, payloadJson))) {
        return this.reject(host, 'TOOL_EXECUTION_FAILED', 'the study log could not be written; nothing was forwarded');
      }
      if (message.type === 'state.updated') room.lastState = payloadJson;
      const text = verbatim ? frame.bytes : envelopeText(message.type, payloadJson);
      for (const client of room.clients) client.sendText(text, { pushed: true });
      return;
    }

    const pending = room.pending.get(message.replyTo);
    if (!pending) {
      return this.reject(host, 'INVALID_MESSAGE', `replyTo "${message.replyTo}" answers no pending request`);
    }
    const expected = replyTypeOf(pending.type);
    if (message.type !== expected && message.type !== 'error') {
      const why = `${pending.type} is answered with ${expected} or error, not ${message.type}`;
      this.reject(host, 'INVALID_MESSAGE', why);
      return this.refusedReply(host, message.replyTo, why);
    }
    room.pending.delete(message.replyTo);
    if (message.type === 'snapshot.state') this.stageOf(room, uiSpecStage(message.payload));

    // The relay owns the study session: its id and its log file are the relay's to report.
    const study = room.study;
    let { payloadJson, verbatim } = this.capped(frame);
    if (message.type === 'session.started' && study) {
      payloadJson = JSON.stringify({ sessionId: study.log.sessionId });
      verbatim = false;
    } else if (message.type === 'session.ended' && study) {
      const logFile = this.displayPath(study.log.path);
      payloadJson = JSON.stringify({ sessionId: study.log.sessionId, logFile, stateReset: message.payload.stateReset });
      verbatim = false;
    }
    const logged = this.log(room, 'out', message.type, loggedPayload(frame, payloadJson), {
      replyTo: pending.originalId,
      peer: pending.peer.name,
    });
    if (message.type === 'session.ended' && study) {
      // session.ended goes out only once the log is complete and on disk; the room is freed either way.
      const flushed = this.endStudy(room);
      if (!logged || !flushed) {
        const why = `the study session ${study.log.sessionId} ended, but its log could not be completed on disk; it holds every record before this one`;
        return this.answerError(room, pending, 'TOOL_EXECUTION_FAILED', why);
      }
    } else if (!logged) {
      const why = `the host's ${message.type} could not be written to the study log, so it was not forwarded; the study goes on once the disk has room`;
      return this.answerError(room, pending, 'TOOL_EXECUTION_FAILED', why);
    }
    const unchanged = verbatim && pending.originalId === message.replyTo;
    pending.peer.sendText(
      unchanged ? frame.bytes : envelopeText(message.type, payloadJson, { replyTo: pending.originalId }),
    );
  }

  /** A host's frame with an error text over {@link MAX_ERROR_TEXT} is passed on with the text cut. */
  private capped(frame: Inbound): { payloadJson: string; verbatim: boolean } {
    const { message } = frame;
    if (message.type !== 'error' || message.payload.message.length <= MAX_ERROR_TEXT) {
      return { payloadJson: frame.payloadJson, verbatim: frame.verbatim };
    }
    return { payloadJson: this.errorJson(message.payload.code, message.payload.message), verbatim: false };
  }

  /** Closes the room's study log (flushed to disk) and frees it; false when the flush failed (reported). */
  private endStudy(room: Room): boolean {
    const study = room.study;
    if (!study) return true;
    room.study = null;
    this.changed(room);
    try {
      study.log.close();
      return true;
    } catch (err) {
      this.warn(`relay: ${(err as Error).message}`);
      return false;
    }
  }

  /** A peer is not reading what it is sent: it is closed (1013) before its queue exhausts the server's memory. */
  private tooSlow(peer: Peer): void {
    const why = `it did not read ${peer.ws.bufferedAmount} queued bytes (maxBufferedBytes ${this.limits.maxBufferedBytes})`;
    this.closedByLimit(peer, why, CLOSE_TRY_LATER);
  }

  /** Frames in progress hold too much memory: the connection holding most is closed (1009). */
  private evict(peer: Peer): void {
    const why = `it held ${peer.inProgress} bytes of an unfinished frame while all connections held more than ${this.limits.maxBytesInProgress} (maxBytesInProgress)`;
    this.closedByLimit(peer, why, null);
    peer.ws.terminate();
  }

  /** Closes a peer for a limit, saying so in the server's log and in its room's study log. */
  private closedByLimit(peer: Peer, why: string, code: number | null): void {
    if (peer.closing) return;
    peer.closing = true;
    this.warn(`relay: closed ${peer.name} from ${peer.address}: ${why}`);
    if (peer.room) {
      const record = JSON.stringify({ reason: why, ...(code !== null && { code }) });
      this.log(peer.room, 'internal', 'relay.peer-closed', record, { peer: peer.name });
    }
    if (code !== null) {
      peer.ws.close(code, 'limit reached');
      setTimeout(() => peer.ws.terminate(), 1000).unref();
    }
  }

  private reject(peer: Peer, code: ErrorCode, message: string, replyTo?: string): void {
    const payloadJson = this.errorJson(code, message);
    if (peer.room) this.log(peer.room, 'internal', 'error', payloadJson, { replyTo, peer: peer.name });
    peer.sendText(envelopeText('error', payloadJson, { replyTo }));
  }

  private errorJson(code: ErrorCode, message: string): string {
    return JSON.stringify({ code, message: capText(message, MAX_ERROR_TEXT) });
  }

  /** Appends to the room's study log when a study session is active; false when the write failed (reported). */
  private log(
    room: Room,
    direction: Direction,
    type: string,
    payloadJson: string | Buffer,
    options: { id?: string | undefined; replyTo?: string | undefined; peer?: string } = {},
  ): boolean {
    if (!room.study) return true;
    try {
      room.study.log.append(direction, type, payloadJson, options);
      return true;
    } catch (err) {
      this.warn(`relay: ${(err as Error).message}`);
      return false;
    }
  }

  /** Keeps the stage of the host's latest uiSpec, for the console (read cheaply: host-scan.ts). */
  private stageOf(room: Room, stage: string | null): void {
    const next = stage === null ? null : stage.slice(0, 64);
    if (next === room.stage) return;
    room.stage = next;
    this.changed(room);
  }

  /** Tells the listener that a room's status changed; its faults are the relay's to contain. */
  private changed(room: Room): void {
    const listener = this.options.onRoomChange;
    if (listener) this.guard('room change listener', () => listener(room.id));
  }

  private displayPath(path: string): string {
    const rel = relative(process.cwd(), resolve(path));
    return rel.startsWith('..') ? resolve(path) : rel;
  }
}
