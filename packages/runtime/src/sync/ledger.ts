/** Which of a request's frames a slot holds: the thread it created, its answer so far, its end. */
export type FrameSlot = 'created' | 'added' | 'end';

interface Entry {
  requestId: string;
  frames: Partial<Record<FrameSlot, string>>;
}

/** How many answered requests keep their last frames for the next reconnection. */
const KEPT_FINISHED = 32;

/**
 * The latest frames of each request the agent is answering, and of the last {@link KEPT_FINISHED}
 * it answered. A frame sent just before a connection dropped may never have arrived, and the
 * protocol has no acknowledgements; so after every reconnection the agent names these requests
 * in `agent_ready` and sends their latest frames again ({@link replay}). That is safe because
 * each of them is idempotent for an orchestrator that follows the spec: `context_created` stores
 * the same mapping, `message_added` overwrites with the same cumulative content, and a completion
 * of a finished request is ignored. Frames made while no connection is open are only kept here.
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

  /** The last frames of an answered request still kept, in order, or null. */
  answered(requestId: string): string[] | null {
    const entry = this.finished.find((e) => e.requestId === requestId);
    return entry ? framesOf(entry) : null;
  }

  /** Keeps `frame` as the request's latest of its slot. */
  record(requestId: string, slot: FrameSlot, frame: string): void {
    const entry = this.active.get(requestId);
    if (entry) entry.frames[slot] = frame;
  }

  /** The request has sent its end (`message_completed` or `chat_response_error`). */
  finish(requestId: string): void {
    const entry = this.active.get(requestId);
    if (!entry) return;
    this.active.delete(requestId);
    this.finished.push(entry);
    if (this.finished.length > KEPT_FINISHED) this.finished.shift();
  }

  /** The request ids whose frames {@link replay} sends: what `agent_ready` announces. */
  requestIds(): string[] {
    return [...this.active.keys(), ...this.finished.map((e) => e.requestId)];
  }

  /** Every kept frame, each request's in protocol order. */
  replay(): string[] {
    return [...this.active.values(), ...this.finished].flatMap(framesOf);
  }
}

function framesOf(entry: Entry): string[] {
  const { created, added, end } = entry.frames;
  return [created, added, end].filter((f): f is string => f !== undefined);
}
