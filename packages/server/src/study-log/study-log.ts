import { closeSync, fsyncSync, writeSync } from 'node:fs';
import type { LogDirection, StudyLogRecord } from '@usher/protocol';

export interface AppendOptions {
  id?: string | undefined;
  replyTo?: string | undefined;
  peer?: string | undefined;
}

/**
 * One study session's JSONL log (external-agent-protocol §6; DESIGN.md "Study log"). The relay
 * is its only writer. Each record is written with a synchronous `write(2)` before the frame it
 * describes is forwarded, so a crash of the server process (even `kill -9`) leaves a valid
 * prefix holding every forwarded frame; {@link close} adds `fsync(2)` so the file also survives
 * a crash of the machine before `session.ended` is sent.
 */
export class StudyLog {
  private eventIndex = 0;
  private fd: number | null;

  constructor(
    readonly sessionId: string,
    readonly path: string,
    fd: number,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.fd = fd;
  }

  get open(): boolean {
    return this.fd !== null;
  }

  /** Number of records written so far (the next record's `eventIndex`). */
  get size(): number {
    return this.eventIndex;
  }

  /**
   * Appends one record. `payloadJson` is the payload already serialized, so a frame's payload is
   * stringified once for both the log and the wire.
   */
  append(direction: LogDirection, type: string, payloadJson: string, options: AppendOptions = {}): void {
    if (this.fd === null) throw new Error(`study log ${this.sessionId} is closed`);
    const record: Omit<StudyLogRecord, 'payload'> = {
      sessionId: this.sessionId,
      eventIndex: this.eventIndex,
      timestamp: this.now().toISOString(),
      direction,
      type,
    };
    if (options.id !== undefined) record.id = options.id;
    if (options.replyTo !== undefined) record.replyTo = options.replyTo;
    if (options.peer !== undefined) record.peer = options.peer;
    const head = JSON.stringify(record);
    const line = `${head.slice(0, -1)},"payload":${payloadJson}}\n`;
    const written = writeSync(this.fd, line);
    const size = Buffer.byteLength(line);
    if (written < size) {
      // A file takes a whole write unless the disk is full; finish a short one rather than leave half a line.
      const bytes = Buffer.from(line);
      for (let at = written; at < size; ) at += writeSync(this.fd, bytes, at);
    }
    this.eventIndex += 1;
  }

  /** Flushes the file to disk and closes it. Idempotent. */
  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}
