import type { Message, MessageOf } from '@usher/protocol';
import type { AgentPhase } from './agent-options.ts';
import { type RelayClient, type RelayEvent, RelayRequestError } from './relay-client.ts';

/** How long to wait before trying a resync again after it timed out. */
const RESYNC_RETRY_MS = 500;

/** What keeping in step with the room needs from the agent. */
export interface RoomPort {
  relay: RelayClient;
  study: string;
  participant: string;
  /** The study session started (or continued) under this id. */
  sessionStarted(sessionId: string): void;
  /** Takes in the whole state the host sent. */
  perceive(snapshot: MessageOf<'snapshot.state'>): void;
  /** Ends a wait on the host's frames, so it sees the state must be read again. */
  wake(): void;
  /** Stopped, or the instruction being carried out was cancelled: the waits here end. */
  halted(): boolean;
  log(line: string): void;
}

/**
 * The agent's hold on the room (spec §4): the connection's phase, whether the host's state must
 * be read again before the next action, and the waits for a host to join and for the relay to
 * take the agent back after a drop.
 */
export class RoomSync {
  phase: AgentPhase = 'DISCONNECTED';
  /** The state must be read again before the next action (see {@link ensureSynced}). */
  needsResync = false;
  /** Set while waiting for a host: called when the relay says one joined. */
  private hostJoined: (() => void) | null = null;
  /**
   * Why the host's whole state could not be read at the last resync (a stage the agent does not
   * know, say), or null when it was read: the agent says so rather than act on a page it cannot see.
   */
  unreadable: string | null = null;
  /** How many times the relay said a host joined the room. */
  private hostJoins = 0;
  /** Set while the relay is out of reach: called when the client has joined again. */
  private rejoined: (() => void) | null = null;

  constructor(private readonly room: RoomPort) {}

  /** Joins the room and starts the study session (waiting for a host when there is none yet). */
  async join(): Promise<void> {
    await this.room.relay.connect();
    this.phase = 'JOINED';
    await this.untilSessionStarts();
  }

  /** Leaves the room. */
  leave(): void {
    this.phase = 'TERMINATING';
    this.room.relay.close();
  }

  /** Wakes the waits for a host and for the relay, so the loop sees it should end. */
  interrupt(): void {
    this.rejoined?.();
    this.hostJoined?.();
  }

  /**
   * Before each turn: after a drop, wait until the relay is back; after a reconnect, a new host,
   * a host leaving or a failure that calls for it, start the session again and read the whole state.
   */
  async ensureSynced(): Promise<void> {
    while (!this.room.halted() && (this.phase === 'DISCONNECTED' || this.needsResync)) {
      if (this.phase === 'DISCONNECTED') {
        await new Promise<void>((resolve) => {
          this.rejoined = resolve;
        });
        continue;
      }
      this.needsResync = false;
      try {
        await this.untilSessionStarts();
      } catch (err) {
        if (!(err instanceof RelayRequestError) || err.wire) throw err;
        // Never retry at once: a lost connection waits for the relay's rejoin, a timeout waits a moment.
        this.needsResync = true;
        if (err.code === 'DISCONNECTED' || err.code === 'CLOSED') this.phase = 'DISCONNECTED';
        else await new Promise((resolve) => setTimeout(resolve, RESYNC_RETRY_MS));
      }
    }
  }

  /** Follows the connection and the hosts coming and going, from the relay client's events. */
  onRelayEvent(event: RelayEvent): void {
    if (event.kind === 'disconnected') this.phase = 'DISCONNECTED';
    if (event.kind === 'joined' && event.reconnect) {
      this.phase = 'JOINED';
      this.needsResync = true;
      this.rejoined?.();
      this.rejoined = null;
      this.room.wake();
    }
    if (event.kind === 'unreadable') {
      // A change the agent could not read may have happened: read the whole state before acting again.
      this.needsResync = true;
      this.room.wake();
    }
    if (event.kind === 'message') this.onMessage(event.message);
  }

  private onMessage(message: Message): void {
    if (message.type === 'relay.joined' && message.payload.role === 'host') {
      this.hostJoins += 1;
      // A new host has its own state: read it before acting on the old one.
      if (this.hostJoined) {
        this.hostJoined();
        this.hostJoined = null;
      } else {
        this.needsResync = true;
        this.room.wake();
      }
    }
    if (message.type === 'error' && message.payload.code === 'SESSION_NOT_ACTIVE') {
      // The host left: the next turn waits for one before going on.
      this.needsResync = true;
      this.room.wake();
    }
  }

  /** Starts the study session, waiting for a host to join the room when there is none yet. */
  private async untilSessionStarts(): Promise<void> {
    for (;;) {
      // A host may join between the refusal and the wait below: count joins to not miss it.
      const hostJoinsBefore = this.hostJoins;
      try {
        return await this.resync();
      } catch (err) {
        if (!(err instanceof RelayRequestError) || err.code !== 'SESSION_NOT_ACTIVE' || this.room.halted()) throw err;
        if (this.hostJoins > hostJoinsBefore) continue;
        this.room.log('agent: no host in the room yet; waiting for one to join');
        await new Promise<void>((resolve) => {
          this.hostJoined = resolve;
        });
        if (this.room.halted()) return;
      }
    }
  }

  /** Starts (or, after a reconnect, continues) the study session and reads the whole state. */
  private async resync(): Promise<void> {
    const { relay } = this.room;
    const started = await relay.request('session.start', {
      studyId: this.room.study,
      participantId: this.room.participant,
    });
    this.room.sessionStarted(started.payload.sessionId);
    this.phase = 'SESSION_ACTIVE';
    let snapshot: MessageOf<'snapshot.state'>;
    try {
      snapshot = await relay.request('snapshot.get', {});
    } catch (err) {
      if (!(err instanceof RelayRequestError) || err.code !== 'UNREADABLE_REPLY') throw err;
      // The host answered with a page the agent cannot read: nothing to retry until it changes.
      this.unreadable = /\((.*)\)$/.exec(err.message)?.[1] ?? err.message;
      return;
    }
    this.unreadable = null;
    this.room.perceive(snapshot);
  }
}
