import type { Readable } from 'node:stream';

/** What {@link readLines} reports, in input order. */
export interface LineHandlers {
  /** One complete line, without its `\n` (nor a `\r` before it). */
  line(text: string): void;
  /** A line grew past the limit; the rest of it, up to its `\n`, is skipped. */
  oversized(limitBytes: number): void;
  /** The input ended in the middle of a line (no final `\n`). */
  unterminated(text: string): void;
  /** The input ended; nothing follows. */
  end(): void;
}

const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * Splits an NDJSON byte stream into lines (ui-protocol-stdio §2.2: UTF-8, `\n` after every
 * message). Lines are decoded only once complete, so a multi-byte character split across chunks
 * stays whole. Memory is bounded by `maxLineBytes`: a longer line is reported once and dropped.
 */
export function readLines(input: Readable, maxLineBytes: number, handlers: LineHandlers): void {
  let parts: Buffer[] = [];
  let length = 0;
  let skipping = false;

  const take = (piece: Buffer) => {
    if (skipping) return;
    if (length + piece.length > maxLineBytes) {
      skipping = true;
      parts = [];
      length = 0;
      handlers.oversized(maxLineBytes);
      return;
    }
    parts.push(piece);
    length += piece.length;
  };

  const lineText = (): string => {
    const bytes = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, length);
    const end = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
    return bytes.toString('utf8', 0, end);
  };

  input.on('data', (chunk: Buffer | string) => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    for (let nl = data.indexOf(NEWLINE, start); nl !== -1; nl = data.indexOf(NEWLINE, start)) {
      take(data.subarray(start, nl));
      if (!skipping) handlers.line(lineText());
      skipping = false;
      parts = [];
      length = 0;
      start = nl + 1;
    }
    if (start < data.length) take(data.subarray(start));
  });
  input.once('end', () => {
    if (!skipping && length > 0) handlers.unterminated(lineText());
    handlers.end();
  });
}
