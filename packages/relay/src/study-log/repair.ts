import { closeSync, fstatSync, ftruncateSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';

const STUDY_LOG = /^s-\d{8}-\d{3,}\.jsonl$/;
/** How far back from the end a torn record's start is looked for: a record is at most a frame (1 MiB) and its head. */
const MAX_TAIL_BYTES = 4 * 1024 * 1024;
const NEWLINE = 0x0a;

/** The size of `path` and whether its last byte ends a line (an empty file does). */
function tailOf(path: string): { size: number; whole: boolean } | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const { size } = fstatSync(fd);
    if (size === 0) return { size, whole: true };
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return { size, whole: last[0] === NEWLINE };
  } finally {
    closeSync(fd);
  }
}

/** Cuts `path` back to its last whole line; the bytes removed, or null when no line end lies within reach. */
function cutBack(path: string, size: number): number | null {
  const fd = openSync(path, 'r+');
  try {
    const chunk = Buffer.alloc(64 * 1024);
    for (let end = size; end > 0 && size - end < MAX_TAIL_BYTES; ) {
      const start = Math.max(0, end - chunk.length);
      const n = readSync(fd, chunk, 0, end - start, start);
      const at = chunk.subarray(0, n).lastIndexOf(NEWLINE);
      if (at >= 0) {
        ftruncateSync(fd, start + at + 1);
        return size - (start + at + 1);
      }
      end = start;
    }
    if (size <= MAX_TAIL_BYTES) {
      // Not one whole line: the first record itself was cut short.
      ftruncateSync(fd, 0);
      return size;
    }
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * Mends the study logs a server killed mid-write left behind. Each record is written whole before
 * its frame is forwarded, but `kill -9` can stop a write of several pages part-way: the file then
 * ends in a record cut short, whose frame nobody received. Such a tail is cut back to the last
 * whole line, so the file is valid JSONL again, and the cut is reported.
 *
 * A file is cut only if it still ends the same way `settleMs` after it was first seen torn: a
 * server writing to the same folder finishes each record within microseconds, so a live log is
 * never touched. Resolves with the files mended.
 */
export async function repairTornLogs(dir: string, warn: (line: string) => void, settleMs: number): Promise<string[]> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => STUDY_LOG.test(name));
  } catch {
    return [];
  }
  const torn = new Map<string, number>();
  for (const name of names) {
    const tail = tailOf(join(dir, name));
    if (tail && !tail.whole) torn.set(name, tail.size);
  }
  if (torn.size === 0) return [];
  await new Promise((resolve) => setTimeout(resolve, settleMs).unref());
  const mended: string[] = [];
  for (const [name, size] of torn) {
    const path = join(dir, name);
    const tail = tailOf(path);
    if (!tail || tail.whole || tail.size !== size) continue;
    try {
      const removed = cutBack(path, size);
      if (removed === null) {
        warn(`study log ${name} ends in a record cut short, and no whole line lies in its last 4 MiB: left as it is`);
        continue;
      }
      mended.push(name);
      warn(
        `study log ${name} ended in a record cut short (the server was stopped mid-write); cut back ${removed} bytes to its last whole record`,
      );
    } catch (err) {
      warn(`study log ${name} ends in a record cut short and could not be mended: ${(err as Error).message}`);
    }
  }
  return mended;
}
