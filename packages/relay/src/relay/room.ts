import { ConfirmationTracker } from '@usher/booking';
import type { MessageType, Role } from '@usher/protocol';
import type { StudyLog } from '../study-log/study-log.ts';
import type { Peer } from './peer.ts';
import { ApprovalTracker } from './step-guard.ts';

/** A request forwarded to the host and not yet answered. */
export interface PendingRequest {
  peer: Peer;
  /** The id the requester gave, restored as `replyTo` on the answer. */
  originalId: string | undefined;
  type: MessageType;
  /** When it was forwarded (ms, the relay's clock), for the request timeout. */
  sentAt: number;
}

export interface StudySession {
  log: StudyLog;
  studyId: string;
  participantId: string;
  /**
   * A session the server opened for a participant's task (study mode) before their page joined:
   * when it closes unless a host joins first (ms, the relay's clock; `pageJoinMs`). Null once a
   * host has joined, and for sessions an agent opened.
   */
  pageDeadline?: number | null;
  /** The address (its limit key) whose request opened the session, for `maxTasksPerAddress`. */
  startedBy?: string;
}

/** A relay room (`relay.join`'s `sessionId`): at most one host, any number of agents and observers. */
export class Room {
  host: Peer | null = null;
  /** Agents and observers. */
  readonly clients = new Set<Peer>();
  study: StudySession | null = null;
  /** Keyed by the id the relay gave the request when it forwarded it to the host. */
  readonly pending = new Map<string, PendingRequest>();
  /** The top-level payload keys the relay dropped from this room's host frames, each said once. */
  readonly droppedKeys = new Set<string>();
  /** Since when the room has had no host (ms; the participant's page), or null while it has one. */
  hostlessSince: number | null = null;
  /** The booking stage of the host's last uiSpec (`movie` … `confirm`), or null before one or after the booking. */
  stage: string | null = null;
  /** The payload (JSON) of the host's last `state.updated`: what a console that starts watching shows first. */
  lastState: string | null = null;
  /** Whether the participant confirmed the booking on screen, from the host's frames (submit-guard.ts). */
  readonly confirmation = new ConfirmationTracker();
  /** The agent's proposals and the participant's decisions, where each step is approved (step-guard.ts). */
  readonly approvals = new ApprovalTracker();
  private requestSeq = 0;

  constructor(readonly id: string) {}

  nextRequestId(): string {
    this.requestSeq += 1;
    return `r${this.requestSeq}`;
  }

  /** No peer is in the room. */
  get empty(): boolean {
    return this.host === null && this.clients.size === 0;
  }

  /** Nothing keeps the room: no peer and no open study session. */
  get idle(): boolean {
    return this.empty && this.study === null;
  }

  count(role: Role): number {
    if (role === 'host') return this.host ? 1 : 0;
    let n = 0;
    for (const peer of this.clients) if (peer.role === role) n += 1;
    return n;
  }
}
