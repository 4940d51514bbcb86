import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { capText, MAX_ERROR_TEXT, MAX_FRAME_BYTES, maySend } from '@usher/protocol';
import { type WebSocket, WebSocketServer } from 'ws';
import type { Capability } from '../access/capabilities.ts';
import { clientAddress, limitKey } from '../access/client-address.ts';
import type { StudyLog } from '../study-log/study-log.ts';
import { Admission } from './admission.ts';
import { RelayCore, type RelayOptions, type RoomHooks } from './core.ts';
import { type Inbound, readFrame } from './inbound.ts';
import { CLOSE_POLICY, CLOSE_TRY_LATER, join, leave } from './membership.ts';
import { Peer } from './peer.ts';
import { Room } from './room.ts';
import { fromClient, fromHost, oversized, refusedReply } from './routing.ts';

/** At most this many dropped payload keys are named per room. */
const MAX_DROPPED_SAID = 32;

/** Frames above this close the connection (ws code 1009); between 1 MiB and this they get `INVALID_MESSAGE`. */
const HARD_FRAME_LIMIT = 16 * MAX_FRAME_BYTES;

export type { RelayOptions, RoomHooks } from './core.ts';
export { CLOSE_REPLACED } from './membership.ts';

export interface RoomStatus {
  room: string;
  host: boolean;
  agents: number;
  observers: number;
  studySession: { sessionId: string; studyId: string; participantId: string; events: number } | null;
  /** The booking stage the host's last state shows, or null. */
  stage: string | null;
}

/**
 * The relay of external-agent-protocol §2–4 with the rules of DESIGN.md: rooms with one host and
 * any number of agents and observers, capabilities checked at the join, role checks, one reply per
 * request routed back to its sender (or an error when its host never answers), the study log
 * written ahead of every forwarded frame, and the limits of `RelayLimits` (limits.ts). No frame
 * can throw out of it: a fault in a handler is logged and answered, and the relay goes on.
 *
 * This file holds the connections (upgrade, reading frames, heartbeat, the sweep of unanswered
 * requests and idle sessions) and what the server asks of the relay; membership.ts joins and
 * leaves rooms, routing.ts carries frames between agents and hosts, and core.ts holds what they
 * share (rooms, clock, limits, the study log's writes).
 */
export class Relay {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: HARD_FRAME_LIMIT });
  private readonly core: RelayCore;
  private readonly admission: Admission;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly sweeper: NodeJS.Timeout;
  private readonly peers = new WeakMap<WebSocket, Peer>();
  private peerSeq = 0;
  private closed = false;

  constructor(options: RelayOptions) {
    this.core = new RelayCore(options);
    this.admission = new Admission(this.core.limits);
    this.heartbeat = setInterval(() => this.core.guard('heartbeat', () => this.beat()), this.core.limits.heartbeatMs);
    this.heartbeat.unref();
    const { requestTimeoutMs, idleSessionMs, pageJoinMs } = this.core.limits;
    const sweepMs = Math.max(10, Math.min(1000, requestTimeoutMs / 4, idleSessionMs / 4, pageJoinMs / 4));
    this.sweeper = setInterval(() => this.core.guard('sweep', () => this.sweep()), sweepMs);
    this.sweeper.unref();
  }

  /** Tells `hooks` of the rooms from now on, and asks them (study mode, once it is built on this relay). */
  attach(hooks: RoomHooks): void {
    this.core.hooks = hooks;
  }

  /**
   * Hands an HTTP upgrade on the agent endpoint to the relay, for a connection whose credential
   * was checked (`capability`). Refuses it with HTTP 503 when a connection limit is reached.
   */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, capability: Capability): void {
    const address = clientAddress(request, this.core.options.trustedProxies ?? null);
    const refusal = this.closed ? 'the server is stopping' : this.admission.refusal(address);
    if (refusal) {
      this.core.warnings.once(`refused ${address}`, `relay: refused a connection from ${address}: ${refusal}`);
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
      this.core.guard('accept', () => this.accept(ws, capability, address, socket, console)),
    );
  }

  status(): RoomStatus[] {
    return [...this.core.rooms.values()].map((room) => ({
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
   * records are `first` (the server's: the agent's manifest), then `study.task`, which says whose
   * task it is. An agent's `session.start` for the same study and participant joins it. Returns
   * the session id; a session already open there goes on.
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
      /** A simulated participant's task (`usher pilot`). */
      pilot?: boolean;
      page?: object;
    },
    /** The address (its limit key) whose request opens it, counted by {@link roomsHeldBy}. */
    startedBy?: string,
    /** Records of the server's own (direction `internal`) written before `study.task`. */
    first: ReadonlyArray<{ type: string; payload: Record<string, unknown> }> = [],
  ): string {
    let room = this.core.rooms.get(roomId);
    if (!room) {
      room = new Room(roomId);
      room.hostlessSince = this.core.now().getTime();
      this.core.rooms.set(roomId, room);
    }
    if (room.study) return room.study.log.sessionId;
    let log: StudyLog;
    try {
      log = this.core.openLog();
    } catch (err) {
      if (room.idle) this.core.rooms.delete(room.id);
      throw err;
    }
    room.study = {
      log,
      studyId: task.studyId,
      participantId: task.participantId,
      // Until the participant's page joins, the session holds its room for pageJoinMs only.
      pageDeadline: room.host === null ? this.core.now().getTime() + this.core.limits.pageJoinMs : null,
      ...(startedBy !== undefined && { startedBy }),
    };
    const written = first.every((r) => this.core.log(room, 'internal', r.type, JSON.stringify(r.payload)));
    if (!written || !this.core.log(room, 'internal', 'study.task', JSON.stringify(task))) {
      this.core.endStudy(room);
      if (room.idle) this.core.rooms.delete(room.id);
      throw new Error('the study log could not be written');
    }
    this.core.changed(room);
    return log.sessionId;
  }

  /**
   * Rooms `address` (a limit key) holds now (`maxTasksPerAddress`): those whose study session a
   * request from it started, and those with no session so started whose host (a page) connected
   * from it. A page holds its room whether or not a task runs there.
   */
  roomsHeldBy(address: string): number {
    let n = 0;
    for (const room of this.core.rooms.values()) if (holderOf(room) === address) n += 1;
    return n;
  }

  /** The address (its limit key) {@link roomsHeldBy} counts `roomId` toward, if any. */
  roomHolder(roomId: string): string | undefined {
    const room = this.core.rooms.get(roomId);
    return room && holderOf(room);
  }

  /** Whether `roomId` is open (a peer is there, or a study session). */
  hasRoom(roomId: string): boolean {
    return this.core.rooms.has(roomId);
  }

  /** Whether a host is in `roomId` now. */
  hasHost(roomId: string): boolean {
    return (this.core.rooms.get(roomId)?.host ?? null) !== null;
  }

  /** Whether a study session is open in `roomId`. */
  hasStudySession(roomId: string): boolean {
    return this.core.rooms.get(roomId)?.study != null;
  }

  /** Ends the study session open in `roomId` (a participant's task ended), with a record saying why; false when none was open. */
  closeStudySession(roomId: string, reason: string, page?: object): boolean {
    const room = this.core.rooms.get(roomId);
    if (!room?.study) return false;
    const record = { reason: capText(reason, MAX_ERROR_TEXT), ...(page && { page }) };
    this.core.log(room, 'internal', 'study.task-ended', JSON.stringify(record));
    // Flushed on libuv's pool: whoever answers for the task's end waits for studyLogsFlushed().
    this.core.endStudyLater(room);
    if (room.idle) this.core.rooms.delete(room.id);
    return true;
  }

  /**
   * Resolves once every study log {@link closeStudySession} closed until now is on disk (a flush
   * that failed is reported through `warn`, as one at the close always was).
   */
  studyLogsFlushed(): Promise<void> {
    return this.core.logsFlushed();
  }

  /**
   * Appends a record of the server's own to the study session open in `roomId` (direction
   * `internal`): what an experimenter did from the console, and who. False when no session is open
   * or the write failed (reported).
   */
  record(roomId: string, type: string, payload: Record<string, unknown>): boolean {
    const room = this.core.rooms.get(roomId);
    if (!room?.study) return false;
    return this.core.log(room, 'internal', type, JSON.stringify(payload));
  }

  /** The payload (JSON text) of the last `state.updated` the host of `roomId` sent, or null. */
  lastState(roomId: string): string | null {
    return this.core.rooms.get(roomId)?.lastState ?? null;
  }

  /** Open connections (`ownAgents` of them the server's own agents') and the bytes of frames in progress: for health checks and tests. */
  load(): {
    connections: number;
    ownAgents: number;
    bytesInProgress: number;
    pausedConnections: number;
    rooms: number;
  } {
    return {
      connections: this.admission.connections,
      ownAgents: this.admission.ownAgents,
      bytesInProgress: this.admission.inProgress,
      pausedConnections: this.admission.pausedConnections,
      rooms: this.core.rooms.size,
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
    for (const room of this.core.rooms.values()) {
      if (!room.study) continue;
      this.core.log(room, 'internal', 'relay.shutdown', JSON.stringify({ reason: capText(reason, MAX_ERROR_TEXT) }));
      this.core.endStudy(room);
    }
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
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
      this.core.limits.maxBufferedBytes,
      console,
    );
    this.peers.set(ws, peer);
    this.admission.add(peer);
    peer.joinTimer = setTimeout(() => {
      if (peer.role !== null) return;
      this.core.warn(
        `relay: closed ${peer.name} from ${address}: no relay.join within ${this.core.limits.joinTimeoutMs} ms (joinTimeoutMs)`,
      );
      ws.close(CLOSE_POLICY, 'join a room first');
      setTimeout(() => ws.terminate(), 1000).unref();
    }, this.core.limits.joinTimeoutMs);
    peer.joinTimer.unref();
    // Counted before `ws` reads the chunk (so a frame it finishes is released whole), judged after.
    socket.prependListener('data', (chunk: Buffer) => this.admission.received(peer, chunk.length));
    socket.on('data', () => {
      const paused = this.admission.check(peer);
      if (paused === null) return;
      this.core.warnings.once(
        `paused ${limitKey(address)}`,
        `relay: stopped reading from ${peer.name} from ${address} for now: ${paused.why}`,
      );
    });
    ws.on('message', (data, isBinary) => {
      this.admission.frameDone(peer);
      this.core.guard('receive', () => this.receive(peer, data as Buffer, isBinary), peer);
    });
    // Control frames may come between the fragments of a message: they do not end the frame in
    // progress, only release their own bytes.
    ws.on('ping', (data) => this.admission.controlDone(peer, data.length));
    ws.on('pong', (data) => {
      this.admission.controlDone(peer, data.length);
      // Only the answer to our own ping counts: an unsolicited pong proves nothing.
      if (peer.pingNonce && data.equals(peer.pingNonce)) peer.alive = true;
    });
    ws.on('error', (err) => this.core.warn(`relay: socket error on ${peer.name}: ${err.message}`));
    ws.on('close', () => {
      if (peer.joinTimer) clearTimeout(peer.joinTimer);
      this.admission.remove(peer);
      this.core.guard('leave', () => leave(this.core, peer));
    });
  }

  private beat(): void {
    for (const ws of this.wss.clients) {
      const peer = this.peers.get(ws);
      if (!peer) continue;
      if (!peer.alive) {
        this.core.closedByLimit(peer, 'it did not answer the last ping', null);
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
    const now = this.core.now().getTime();
    for (const room of this.core.rooms.values()) {
      for (const [key, pending] of room.pending) {
        if (now - pending.sentAt < this.core.limits.requestTimeoutMs) continue;
        room.pending.delete(key);
        const why = `the host did not answer ${pending.type} within ${this.core.limits.requestTimeoutMs} ms`;
        this.core.answerError(room, pending, 'TOOL_EXECUTION_FAILED', why);
      }
      if (!room.study || room.host !== null) continue;
      // A task's session whose page never came, or whose page has been gone that long, is over,
      // whoever else waits there.
      const { pageJoinMs, idleSessionMs } = this.core.limits;
      const deadline = room.study.pageDeadline;
      const since = room.hostlessSince;
      if (deadline != null && now >= deadline) {
        this.closeIdle(
          room,
          `no page joined room "${room.id}" within ${duration(pageJoinMs)} of its task's start (pageJoinMs)`,
        );
      } else if (since !== null && now - since >= idleSessionMs) {
        this.closeIdle(room, `room "${room.id}" had no host for ${duration(idleSessionMs)} (idleSessionMs)`);
      }
    }
  }

  /** Closes the study session of a room left without its host, saying why; the agent there can stop. */
  private closeIdle(room: Room, reason: string): void {
    if (!room.study) return;
    this.core.log(room, 'internal', 'relay.session-closed', JSON.stringify({ reason }));
    this.core.warn(`relay: closed study session ${room.study.log.sessionId}: ${reason}`);
    this.core.endStudy(room);
    if (room.idle) this.core.rooms.delete(room.id);
    this.core.hooks.sessionIdle?.(room.id);
  }

  private receive(peer: Peer, data: Buffer, isBinary: boolean): void {
    if (peer.closing) return;
    if (isBinary) return this.core.reject(peer, 'INVALID_MESSAGE', 'frames must be text (a JSON envelope), not binary');
    if (data.length > MAX_FRAME_BYTES) return oversized(this.core, peer, data);
    const read = readFrame(data, peer.role === 'host');
    if (!read.ok) {
      this.core.reject(peer, read.code, read.message, read.replyTo);
      // A refused reply still ends its request: the agent that asked hears why, not its own timeout.
      if (read.answers !== undefined) refusedReply(this.core, peer, read.answers, read.message);
      return;
    }
    const frame = read.frame;
    const message = frame.message;
    if (peer.role === 'host' && frame.dropped.length > 0) this.saidDropped(peer, frame);
    // A host's frame the scan accepted is one a host may send: it goes straight on.
    if (read.scanned) return fromHost(this.core, peer, frame);

    if (peer.role === null) {
      if (message.type !== 'relay.join') {
        return this.core.reject(peer, 'SESSION_NOT_ACTIVE', 'join a room with relay.join first', message.id);
      }
      return join(this.core, peer, message);
    }
    if (message.type === 'relay.join') {
      return this.core.reject(
        peer,
        'INVALID_MESSAGE',
        `already joined room "${peer.room?.id}" as ${peer.role}`,
        message.id,
      );
    }
    if (!maySend(peer.role, message.type)) {
      const article = peer.role === 'agent' ? 'an' : 'a';
      return this.core.reject(
        peer,
        'INVALID_MESSAGE',
        `${article} ${peer.role} may not send ${message.type}`,
        message.id,
      );
    }
    if (peer.role === 'host') fromHost(this.core, peer, frame);
    else fromClient(this.core, peer, frame);
  }

  /**
   * A host's payload keys the contract does not name are dropped (never forwarded or logged), and
   * the server's log says so once per room and key, so a host's extension is not lost in silence.
   */
  private saidDropped(peer: Peer, frame: Inbound): void {
    const room = peer.room;
    if (!room) return;
    // A host sending ever new keys is told of the first few: the room's memory stays small.
    const fresh = frame.dropped
      .filter((key) => !room.droppedKeys.has(key))
      .slice(0, Math.max(0, MAX_DROPPED_SAID - room.droppedKeys.size));
    if (fresh.length === 0) return;
    for (const key of fresh) room.droppedKeys.add(key);
    const keys = fresh.map((k) => JSON.stringify(capText(k, 64))).join(', ');
    this.core.warn(
      `relay: room "${room.id}": dropped the ${frame.message.type} payload key(s) ${keys} the protocol does not name; the frame goes on without them (said once per room)`,
    );
  }

  /** A peer is not reading what it is sent: it is closed (1013) before its queue exhausts the server's memory. */
  private tooSlow(peer: Peer): void {
    const why = `it did not read ${peer.ws.bufferedAmount} queued bytes (maxBufferedBytes ${this.core.limits.maxBufferedBytes})`;
    this.core.closedByLimit(peer, why, CLOSE_TRY_LATER);
  }
}

/** Whom a room counts toward (see {@link Relay.roomsHeldBy}). */
function holderOf(room: Room): string | undefined {
  return room.study?.startedBy ?? (room.host ? limitKey(room.host.address) : undefined);
}

/** `600000` as "10 min", `60000` as "1 min", `1500` as "1500 ms". */
function duration(ms: number): string {
  const minutes = ms / 60_000;
  return Number.isInteger(minutes) && minutes >= 1 ? `${minutes} min` : `${ms} ms`;
}
