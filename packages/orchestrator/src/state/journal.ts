import {
  closeSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { type JournalRecord, JournalRecordSchema } from './records.ts';
import { SessionStore, StateError } from './store.ts';

/** The journal cannot be opened or replayed; its message names the file and the line. */
export class JournalError extends Error {
  override readonly name = 'JournalError';
}

export interface OpenedJournal {
  journal: Journal;
  store: SessionStore;
  /** Records replayed. */
  records: number;
  /** Bytes of a torn last line (a write cut short by a crash) that were cut off, 0 when none. */
  tornBytes: number;
}

/**
 * The orchestrator's durable state: `<dir>/journal.jsonl`, one {@link JournalRecord} a line,
 * appended and `fsync`ed before the change it records is acknowledged, and replayed into a
 * {@link SessionStore} at start. A crash can only cut the last line short (each line is one
 * `write(2)`), so a last line without its newline is dropped at the next start; any other line
 * that does not parse or does not fit is an error, never skipped. `<dir>/orchestrator.lock`
 * keeps a second orchestrator off the same folder.
 */
export class Journal {
  private fd: number | null;

  private constructor(
    readonly path: string,
    private readonly lockPath: string,
    fd: number,
    private readonly store: SessionStore,
  ) {
    this.fd = fd;
  }

  /** Opens (or creates) the journal in `dir` and replays it. */
  static open(dir: string): OpenedJournal {
    try {
      mkdirSync(dir, { recursive: true });
    } catch (err) {
      throw new JournalError(`cannot create the data folder ${dir}: ${(err as Error).message}`);
    }
    const lockPath = join(dir, 'orchestrator.lock');
    lock(lockPath);
    const path = join(dir, 'journal.jsonl');
    let fd: number;
    try {
      fd = openSync(path, 'a+');
    } catch (err) {
      unlinkSync(lockPath);
      throw new JournalError(`cannot open the journal ${path}: ${(err as Error).message}`);
    }
    try {
      const store = new SessionStore();
      const { records, tornBytes } = replay(path, fd, store);
      return { journal: new Journal(path, lockPath, fd, store), store, records, tornBytes };
    } catch (err) {
      closeSync(fd);
      unlinkSync(lockPath);
      throw err;
    }
  }

  /**
   * Applies a change to the store and makes it durable. A change that does not fit the state
   * throws a {@link StateError} and changes nothing; once this returns, the change is on disk.
   */
  commit(record: JournalRecord): void {
    if (this.fd === null) throw new JournalError(`the journal ${this.path} is closed`);
    const checked = JournalRecordSchema.parse(record);
    this.store.apply(checked);
    const line = Buffer.from(`${JSON.stringify(checked)}\n`);
    for (let at = 0; at < line.length; ) at += writeSync(this.fd, line, at);
    fsyncSync(this.fd);
  }

  /** Closes the file and releases the folder. Idempotent. */
  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
    try {
      unlinkSync(this.lockPath);
    } catch {
      // Already gone: nothing holds the folder.
    }
  }
}

function replay(path: string, fd: number, store: SessionStore): { records: number; tornBytes: number } {
  const text = readFileSync(fd, 'utf8');
  const end = text.lastIndexOf('\n') + 1;
  const lines = text.slice(0, end).split('\n');
  lines.pop();
  lines.forEach((line, index) => {
    let record: JournalRecord;
    try {
      record = JournalRecordSchema.parse(JSON.parse(line));
      store.apply(record);
    } catch (err) {
      const why =
        err instanceof SyntaxError
          ? 'not JSON'
          : err instanceof z.ZodError
            ? z.prettifyError(err)
            : err instanceof StateError
              ? err.message
              : String(err);
      throw new JournalError(`the journal ${path} is damaged at line ${index + 1}: ${why}`);
    }
  });
  const tornBytes = Buffer.byteLength(text.slice(end));
  if (tornBytes > 0) {
    ftruncateSync(fd, Buffer.byteLength(text.slice(0, end)));
    fsyncSync(fd);
  }
  return { records: lines.length, tornBytes };
}

/** Takes `<dir>/orchestrator.lock`, or takes it over from a process that no longer runs. */
function lock(lockPath: string): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockPath, `${process.pid}\n`, { flag: 'wx' });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new JournalError(`cannot lock ${lockPath}: ${(err as Error).message}`);
      }
    }
    const holder = readPid(lockPath);
    if (holder !== null && alive(holder)) {
      throw new JournalError(`another orchestrator (pid ${holder}) uses this data folder (${lockPath})`);
    }
    // Left behind by a process that was killed: take it over.
    unlinkSync(lockPath);
  }
  throw new JournalError(`cannot lock ${lockPath}`);
}

function readPid(path: string): number | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  const buffer = Buffer.alloc(32);
  const size = readSync(fd, buffer, 0, buffer.length, 0);
  closeSync(fd);
  const pid = Number.parseInt(buffer.subarray(0, size).toString('utf8'), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
