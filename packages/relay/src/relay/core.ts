import { relative, resolve } from 'node:path';
import { capText, type ErrorCode, MAX_ERROR_TEXT, type StudyLogRecord } from '@usher/protocol';
import type { TrustedProxies } from '../access/client-address.ts';
import { SessionIdAllocator } from '../study-log/session-ids.ts';
import { type LogFileIo, StudyLog } from '../study-log/study-log.ts';
import { describeFault, HeldWarnings } from './faults.ts';
import { DEFAULT_LIMITS, type RelayLimits } from './limits.ts';
import type { Peer } from './peer.ts';
import type { Room } from './room.ts';
import { envelopeText } from './wire.ts';

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
  /** What the relay tells, and asks, whoever runs tasks in its rooms (see {@link RoomHooks}); none by default. */
  hooks?: RoomHooks;
  /** Reverse proxies whose `X-Forwarded-For` names the client the per-address limits count (see {@link clientAddress}). */
  trustedProxies?: TrustedProxies | null;
}

/**
 * What the relay tells, and asks, whoever runs tasks in its rooms: study mode implements it
 * (`@usher/study-host`). The relay knows of a study only the labels of a study session's first
 * record (study and participant ids) and what these calls say.
 */
export interface RoomHooks {
  /**
   * Asked when a host is about to join `room` from `address` (its limit key), after its
   * credential was checked: study mode opens the task's session again when the participant is
   * mid-task and it is closed, so a page that comes back is never relayed unlogged. `uncounted`
   * says that a study session is open there that counts toward no address yet (a restart reopened
   * it): unless the join is refused, the relay then counts it toward `address`
   * ({@link Relay.roomsHeldBy}). Returns why the join is refused, or null.
   */
  hostJoining?(room: string, address: string, uncounted: boolean): string | null;
  /**
   * Told when a study session is closed because its room had no host for `idleSessionMs`, or no
   * page joined it within `pageJoinMs` of its task's start (the agent there can stop).
   */
  sessionIdle?(room: string): void;
  /**
   * Told when what {@link Relay.status} says of a room changes: a peer joins or leaves, its stage
   * changes, its study session opens or closes (the console's live view; called often, keep it cheap).
   */
  roomChanged?(room: string): void;
  /**
   * Asked when an agent's tool call arrives in `room` during a study session: true when the
   * room's condition has the agent ask the participant before submitting the booking. The relay
   * then refuses an agent's submit (`next` on the confirm stage) unless the participant confirmed
   * since the booking on screen last changed, and has every `next` name the stage it is planned
   * for (submit-guard.ts). Called for every tool call: keep it cheap.
   */
  asksBeforeSubmit?(room: string): boolean;
  /**
   * Asked when an agent's tool call arrives in `room` during a study session: true when the room's
   * condition has the agent propose each step for the participant's approval (`guard: each-step`).
   * The relay then refuses a tool call the participant did not approve as proposed (step-guard.ts).
   * Called for every tool call: keep it cheap.
   */
  approvesEachStep?(room: string): boolean;
}

type Direction = StudyLogRecord['direction'];

/**
 * What the relay's parts share (relay.ts: connections and the public API; membership.ts: joins
 * and leaves; routing.ts: frames between agents and hosts): the rooms, the clock, the limits, and
 * the few acts each of them needs: write a study-log record, refuse a frame, answer a pending
 * request with an error, close a peer for a limit, contain a fault.
 */
export class RelayCore {
  readonly rooms = new Map<string, Room>();
  readonly ids: SessionIdAllocator;
  readonly now: () => Date;
  readonly warn: (line: string) => void;
  readonly warnings: HeldWarnings;
  readonly limits: RelayLimits;
  /** What the relay tells, and asks, whoever runs tasks in its rooms (set by {@link Relay.attach}). */
  hooks: RoomHooks;

  /** Study logs closed by {@link endStudyLater} whose flush has not returned yet (each removes itself). */
  private readonly closing = new Set<Promise<void>>();

  constructor(readonly options: RelayOptions) {
    this.hooks = options.hooks ?? {};
    this.ids = new SessionIdAllocator(options.logsDir);
    this.now = options.now ?? (() => new Date());
    this.warn = options.warn ?? ((line) => console.error(line));
    this.warnings = new HeldWarnings(this.warn, this.now);
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
  }

  /** Creates the study log of a new session, named from the clock; throws when the file cannot be created. */
  openLog(): StudyLog {
    const { sessionId, path, fd } = this.ids.allocate(this.now());
    return new StudyLog(sessionId, path, fd, this.now, this.options.logIo);
  }

  /** Runs a handler so that no fault escapes to the process: it is reported and the relay goes on. */
  guard(what: string, run: () => void, peer?: Peer, replyTo?: string): void {
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

  /** Answers a pending request with an error the relay makes, logged. */
  answerError(room: Room, pending: { peer: Peer; originalId: string | undefined }, code: ErrorCode, why: string): void {
    const payloadJson = this.errorJson(code, why);
    this.log(room, 'internal', 'error', payloadJson, { replyTo: pending.originalId, peer: pending.peer.name });
    pending.peer.sendText(envelopeText('error', payloadJson, { replyTo: pending.originalId }));
  }

  /**
   * Closes the room's study log and frees it as {@link endStudy} does, with the log's flush on
   * libuv's pool: {@link logsFlushed} waits for it, and a flush that fails is reported.
   */
  endStudyLater(room: Room): void {
    const study = room.study;
    if (!study) return;
    room.study = null;
    this.changed(room);
    const closing = study.log.closeLater().catch((err: unknown) => this.warn(`relay: ${(err as Error).message}`));
    this.closing.add(closing);
    void closing.finally(() => this.closing.delete(closing));
  }

  /** Resolves once every study log {@link endStudyLater} closed until now is on disk (or its failure reported). */
  logsFlushed(): Promise<void> {
    if (this.closing.size === 0) return Promise.resolve();
    return Promise.all(this.closing).then(() => {});
  }

  /** Closes the room's study log (flushed to disk) and frees it; false when the flush failed (reported). */
  endStudy(room: Room): boolean {
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

  /** Closes a peer for a limit, saying so in the server's log and in its room's study log. */
  closedByLimit(peer: Peer, why: string, code: number | null): void {
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

  reject(peer: Peer, code: ErrorCode, message: string, replyTo?: string): void {
    const payloadJson = this.errorJson(code, message);
    if (peer.room) this.log(peer.room, 'internal', 'error', payloadJson, { replyTo, peer: peer.name });
    peer.sendText(envelopeText('error', payloadJson, { replyTo }));
  }

  errorJson(code: ErrorCode, message: string): string {
    return JSON.stringify({ code, message: capText(message, MAX_ERROR_TEXT) });
  }

  /** Appends to the room's study log when a study session is active; false when the write failed (reported). */
  log(
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
  stageOf(room: Room, stage: string | null): void {
    const next = stage === null ? null : stage.slice(0, 64);
    if (next === room.stage) return;
    room.stage = next;
    this.changed(room);
  }

  /** Tells the listener that a room's status changed; its faults are the relay's to contain. */
  changed(room: Room): void {
    const hooks = this.hooks;
    if (hooks.roomChanged) this.guard('room change listener', () => hooks.roomChanged?.(room.id));
  }

  displayPath(path: string): string {
    const rel = relative(process.cwd(), resolve(path));
    return rel.startsWith('..') ? resolve(path) : rel;
  }
}
