/** Which of a request's frames a slot holds: the thread it created, its answer so far, its end. */
export type FrameSlot = 'created' | 'added' | 'end';

const SLOTS: readonly FrameSlot[] = ['created', 'added', 'end'];

interface Kept {
  frame: string;
  /** The frame was handed to an open socket. */
  sent: boolean;
}

interface Entry {
  requestId: string;
  frames: Partial<Record<FrameSlot, Kept>>;
}

/** One frame to send again after a reconnection. */
export interface Resend {
  requestId: string;
  slot: FrameSlot;
  frame: string;
}

/** How many answered requests keep their last frames (to answer a `chat_message` sent again). */
const KEPT_FINISHED = 32;

/**
 * The latest frames of each request the agent is answering, and of the last {@link KEPT_FINISHED}
 * it answered. The protocol has no acknowledgements, so after a reconnection the agent sends
 * again only what may not have arrived ({@link replay}): the latest frames of requests still
 * being answered (each is idempotent for an orchestrator that follows the spec), and of a
 * finished request the frames that were never handed to an open socket (with its latest answer
 * again when its end is among them). A finished
 * request's frames that were sent are never replayed: the spec's orchestrator matches an event
 * to *the waiting interaction of the session*, so an old completion replayed after a restart
 * would end a newer request waiting in the same session.
 */
export class RequestLedger {
  private readonly active = new Map<string, Entry>();
  private finished: Entry[] = [];

  /** Starts tracking a request; false when it is being answered already. */
  begin(requestId: string): boolean {
    if (this.active.has(requestId)) return false;
    this.finished = this.finished.filter((e) => e.requestId !== requestId);
    this.active.set(requestId, { requestId, frames: {} });
    return true;
  }

  isActive(requestId: string): boolean {
    return this.active.has(requestId);
  }

  /** The last frames of an answered request still kept, in order, or null (to answer a repeated `chat_message`). */
  answered(requestId: string): string[] | null {
    const entry = this.finished.find((e) => e.requestId === requestId);
    return entry ? SLOTS.flatMap((slot) => entry.frames[slot]?.frame ?? []) : null;
  }

  /** Keeps `frame` as the request's latest of its slot; `sent` when it has left for the network. */
  record(requestId: string, slot: FrameSlot, frame: string, sent: boolean): void {
    const entry = this.active.get(requestId);
    if (entry) entry.frames[slot] = { frame, sent };
  }

  /** A frame (from {@link replay}, or one just recorded) has left for the network. */
  delivered(resend: Resend): void {
    const entry = this.active.get(resend.requestId) ?? this.finished.find((e) => e.requestId === resend.requestId);
    const kept = entry?.frames[resend.slot];
    if (kept && kept.frame === resend.frame) kept.sent = true;
  }

  /** The request has sent its end (`message_completed` or `chat_response_error`). */
  finish(requestId: string): void {
    const entry = this.active.get(requestId);
    if (!entry) return;
    this.active.delete(requestId);
    this.finished.push(entry);
    if (this.finished.length > KEPT_FINISHED) this.finished.shift();
  }

  /** What to send after a reconnection, each request's frames in protocol order. */
  replay(): Resend[] {
    const all = (entry: Entry) => SLOTS.flatMap((slot) => resend(entry, slot, () => true));
    // A finished request whose end never left still has its interaction waiting: its latest answer
    // goes again before the end even if it was sent, as a frame handed to a socket the peer then
    // dropped may never have arrived (the answer is cumulative: message_added overwrites).
    const unsent = (entry: Entry) => {
      const waiting = entry.frames.end?.sent === false;
      return SLOTS.flatMap((slot) => resend(entry, slot, (kept) => !kept.sent || (waiting && slot === 'added')));
    };
    return [...[...this.active.values()].flatMap(all), ...this.finished.flatMap(unsent)];
  }

  /**
   * What `agent_ready` announces: the requests being answered, and the finished ones whose end
   * {@link replay} delivers now. An orchestrator may end any other request it sent: its answer is
   * lost, or it arrived already.
   */
  requestIds(): string[] {
    return [...new Set([...this.active.keys(), ...this.replay().map((r) => r.requestId)])];
  }
}

function resend(entry: Entry, slot: FrameSlot, wanted: (kept: Kept) => boolean): Resend[] {
  const kept = entry.frames[slot];
  return kept && wanted(kept) ? [{ requestId: entry.requestId, slot, frame: kept.frame }] : [];
}
