import { closeSync, fsync, fsyncSync, ftruncateSync, writeSync } from 'node:fs';
import type { LogDirection } from '@usher/protocol';

export interface AppendOptions {
  id?: string | undefined;
  replyTo?: string | undefined;
  peer?: string | undefined;
}

/** The file calls a study log makes; tests pass a faulty one to play a full disk. */
export interface LogFileIo {
  /** Writes `bytes` from `offset` at `position` in the file; returns how many were written. */
  write(fd: number, bytes: Buffer, offset: number, position: number): number;
  truncate(fd: number, length: number): void;
  sync(fd: number): void;
  /** As {@link sync}, on libuv's thread pool: resolves once the file is on disk. */
  syncLater(fd: number): Promise<void>;
  close(fd: number): void;
}

export const NODE_FILE_IO: LogFileIo = {
  write: (fd, bytes, offset, position) => writeSync(fd, bytes, offset, bytes.length - offset, position),
  truncate: (fd, length) => ftruncateSync(fd, length),
  sync: (fd) => fsyncSync(fd),
  syncLater: (fd) => new Promise((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve()))),
  close: (fd) => closeSync(fd),
};

/** A record could not be written; the file holds every record before it, whole. */
export class LogWriteError extends Error {
  override readonly name = 'LogWriteError';
}

/**
 * One study session's JSONL log (external-agent-protocol §6; DESIGN.md "Study log"). The relay
 * is its only writer. Each record is written with synchronous `write(2)` calls before the frame it
 * describes is forwarded, so a crash of the server process (even `kill -9`) leaves a valid
 * prefix holding every forwarded frame; {@link close} adds `fsync(2)` so the file also survives
 * a crash of the machine before `session.ended` is sent.
 *
 * A record is one line whatever the sender's formatting (the payload must be JSON without line
 * breaks; the relay makes sure). A write that fails part-way (a full disk) is cut back, so the
 * file stays valid JSONL with gapless `eventIndex`es, and the next append can succeed once the
 * disk has room again.
 */
export class StudyLog {
  private eventIndex = 0;
  /** Bytes of whole records in the file: where the next record is written. */
  private length = 0;
  /** A failed write left bytes past {@link length} that could not be cut yet. */
  private torn = false;
  private fd: number | null;
  private readonly sessionIdJson: string;
  /** The last record's time: its ISO text is made once per millisecond. */
  private lastMs = Number.NaN;
  private lastIso = '';

  constructor(
    readonly sessionId: string,
    readonly path: string,
    fd: number,
    private readonly now: () => Date = () => new Date(),
    private readonly io: LogFileIo = NODE_FILE_IO,
  ) {
    this.fd = fd;
    this.sessionIdJson = JSON.stringify(sessionId);
  }

  get open(): boolean {
    return this.fd !== null;
  }

  /** Number of records written so far (the next record's `eventIndex`). */
  get size(): number {
    return this.eventIndex;
  }

  /**
   * Appends one record, or throws a {@link LogWriteError} and leaves the file as it was.
   * `payload` is the payload already serialized, on one line, so a frame's payload is
   * stringified once for both the log and the wire: its JSON text, or that text's UTF-8 bytes
   * (the payload of a frame as received, copied into the record without decoding it).
   */
  append(direction: LogDirection, type: string, payload: string | Buffer, options: AppendOptions = {}): void {
    if (this.fd === null) throw new LogWriteError(`study log ${this.sessionId} is closed`);
    // The members in the order of `StudyLogRecord`, as JSON.stringify would write them, without
    // an object for it to walk: this runs for every frame the relay forwards.
    let head = `{"sessionId":${this.sessionIdJson},"eventIndex":${this.eventIndex},"timestamp":"${this.timestamp()}","direction":${JSON.stringify(direction)},"type":${JSON.stringify(type)}`;
    if (options.id !== undefined) head += `,"id":${JSON.stringify(options.id)}`;
    if (options.replyTo !== undefined) head += `,"replyTo":${JSON.stringify(options.replyTo)}`;
    if (options.peer !== undefined) head += `,"peer":${JSON.stringify(options.peer)}`;
    head = escapeLineBreaks(head);
    const text = typeof payload === 'string' ? escapeLineBreaks(payload) : payload;
    const bytes = recordBytes(`${head},"payload":`, text);
    let at = 0;
    try {
      // A file takes a whole write unless the disk is full; a short one is finished or fails.
      while (at < bytes.length) at += this.io.write(this.fd, bytes, at, this.length + at);
    } catch (err) {
      this.torn = true;
      this.cutBack();
      throw new LogWriteError(`study log ${this.sessionId}: ${(err as Error).message}`);
    }
    this.length += bytes.length;
    this.eventIndex += 1;
    // The record overwrote the torn bytes; cut whatever of them lay beyond it.
    if (this.torn) this.cutBack();
  }

  private timestamp(): string {
    const now = this.now();
    const ms = now.getTime();
    if (ms !== this.lastMs) {
      this.lastMs = ms;
      this.lastIso = now.toISOString();
    }
    return this.lastIso;
  }

  /**
   * Flushes the file to disk and closes it; throws a {@link LogWriteError} when the flush fails
   * (the descriptor is closed all the same). Idempotent.
   */
  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    try {
      this.io.sync(fd);
    } catch (err) {
      throw new LogWriteError(`study log ${this.sessionId}: flushing to disk failed: ${(err as Error).message}`);
    } finally {
      this.io.close(fd);
    }
  }

  /**
   * As {@link close}, with the flush on libuv's thread pool: the log takes no record from now on,
   * and the promise resolves once the file is on disk and closed, or rejects with a
   * {@link LogWriteError} when the flush fails (the descriptor is closed all the same). Idempotent.
   */
  closeLater(): Promise<void> {
    if (this.fd === null) return Promise.resolve();
    const fd = this.fd;
    this.fd = null;
    return this.io
      .syncLater(fd)
      .catch((err: unknown) => {
        throw new LogWriteError(`study log ${this.sessionId}: flushing to disk failed: ${(err as Error).message}`);
      })
      .finally(() => this.io.close(fd));
  }

  /** Removes the torn end of a record that failed part-way, so the file ends after its last whole record. */
  private cutBack(): void {
    try {
      this.io.truncate(this.fd as number, this.length);
      this.torn = false;
    } catch {
      // Tried again after the next record, which is written over the torn bytes (writes are positioned).
    }
  }
}

/**
 * Line breaks other than `\n` that JSON leaves raw inside strings, and some readers split lines on
 * (Python's `str.splitlines`, editors): written as `\u` escapes, so a record is one line for every
 * reader. Inside valid JSON they can only stand in strings, where the escape means the same text.
 */
const OTHER_LINE_BREAK = /[\u0085\u2028\u2029]/;
const OTHER_LINE_BREAKS = /[\u0085\u2028\u2029]/g;

function escapeLineBreaks(json: string): string {
  if (!OTHER_LINE_BREAK.test(json)) return json;
  return json.replace(OTHER_LINE_BREAKS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Holds the record being written: written synchronously, so one buffer serves every log. */
let scratch = Buffer.allocUnsafe(64 * 1024);
/** Records larger than this get a buffer of their own, so one huge record does not stay held. */
const SCRATCH_MAX = 4 * 1024 * 1024;

/** The bytes of one record, `head` + payload + `}` and a line break, in a buffer valid until the next call. */
function recordBytes(head: string, payload: string | Buffer): Buffer {
  // UTF-8 takes at most 3 bytes per UTF-16 unit.
  const most = 3 * head.length + (typeof payload === 'string' ? 3 * payload.length : payload.length) + 2;
  let into = scratch;
  if (most > scratch.length) {
    into = Buffer.allocUnsafe(most);
    if (most <= SCRATCH_MAX) scratch = into;
  }
  let n = into.write(head, 0);
  n += typeof payload === 'string' ? into.write(payload, n) : payload.copy(into, n);
  n += into.write('}\n', n);
  return into.subarray(0, n);
}
