import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { PreferenceModel } from '@usher/agent';
import type { AgentEvent, SessionSummary, TerminalRunStatus } from '@usher/protocol/stdio';
import { type EventRecord, type SessionRecord, SessionRecordSchema } from './records.ts';

/** One run as stored: its input, its events in `seq` order and how it ended (absent when it never did). */
export interface StoredRun {
  runId: string;
  text: string;
  events: EventRecord[];
  status?: { status: TerminalRunStatus; message?: string };
}

/** A session as read from its file. */
export interface StoredSession {
  id: string;
  runs: StoredRun[];
  /** The wishes after the last run; empty for a new session. */
  model: PreferenceModel;
}

/**
 * The runtime's sessions, one JSONL file each under `dir` (`<session id>.jsonl`). Records are
 * appended as they happen, so a killed runtime leaves every event it sent; each run's end is
 * flushed to disk (fsync). A session is resumable by id after a restart: its wishes come back
 * from its last `model` record.
 */
export class SessionStore {
  private readonly open = new Map<string, SessionFile>();

  constructor(
    readonly dir: string,
    private readonly log: (line: string) => void,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  /** Starts a new session file. */
  create(): SessionFile {
    const id = newSessionId();
    const file = new SessionFile(this.pathOf(id), { id, runs: [], model: { hard: [], soft: [] } }, this.log);
    file.append({ type: 'session', session_id: id, created_at: new Date().toISOString(), format: 1 });
    this.open.set(id, file);
    return file;
  }

  /**
   * The session `id` ready for more runs, or null when there is none. A run left without an end
   * (the runtime stopped during it) is closed as an error first, so every run has one end.
   */
  resume(id: string): SessionFile | null {
    const cached = this.open.get(id);
    if (cached) return cached;
    const session = this.read(id);
    if (!session) return null;
    endLastLine(this.pathOf(id), this.log);
    const file = new SessionFile(this.pathOf(id), session, this.log);
    for (const run of session.runs.filter((r) => !r.status)) {
      file.end(run.runId, 'error', 'the runtime stopped before this run ended');
    }
    file.sync();
    this.open.set(id, file);
    return file;
  }

  /** The session `id` as stored, or null when there is none. Unreadable lines are skipped (and logged). */
  read(id: string): StoredSession | null {
    let text: string;
    try {
      text = readFileSync(this.pathOf(id), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    const session: StoredSession = { id, runs: [], model: { hard: [], soft: [] } };
    const runs = new Map<string, StoredRun>();
    let skipped = 0;
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const record = parseRecord(line);
      if (!record) {
        skipped += 1;
        continue;
      }
      if (record.type === 'run') {
        const run: StoredRun = { runId: record.run_id, text: record.input.text, events: [] };
        runs.set(run.runId, run);
        session.runs.push(run);
      } else if (record.type === 'event') {
        runs.get(record.run_id)?.events.push(record);
      } else if (record.type === 'status') {
        const run = runs.get(record.run_id);
        if (run)
          run.status = { status: record.status, ...(record.message !== undefined && { message: record.message }) };
      } else if (record.type === 'model') {
        session.model = record.model;
      }
    }
    if (skipped > 0) this.log(`sessions: skipped ${skipped} unreadable line(s) in ${this.pathOf(id)}`);
    return session;
  }

  exists(id: string): boolean {
    try {
      return statSync(this.pathOf(id)).isFile();
    } catch {
      return false;
    }
  }

  /** The newest `limit` sessions, by their last write. */
  list(limit: number): SessionSummary[] {
    if (limit === 0) return [];
    const files = readdirSync(this.dir)
      .filter((name) => name.endsWith('.jsonl'))
      .flatMap((name) => {
        try {
          return [{ id: name.slice(0, -'.jsonl'.length), mtime: statSync(join(this.dir, name)).mtime }];
        } catch {
          return [];
        }
      })
      .sort((a, b) => b.mtime.getTime() - a.mtime.getTime() || (a.id < b.id ? 1 : -1))
      .slice(0, limit);
    return files.flatMap(({ id, mtime }) => {
      const session = this.read(id);
      if (!session) return [];
      const last = session.runs.at(-1);
      return [
        {
          session_id: id,
          updated_at: mtime.toISOString(),
          message_count: session.runs.length,
          ...(last && { run_id: last.runId, last_user_message: last.text }),
        },
      ];
    });
  }

  /** Flushes and closes every open session file. */
  close(): void {
    for (const file of this.open.values()) file.close();
    this.open.clear();
  }

  private pathOf(id: string): string {
    return join(this.dir, `${id}.jsonl`);
  }
}

/** An open session: its conversation's wishes and the appends of its runs. */
export class SessionFile {
  private fd: number | null = null;
  private broken = false;

  constructor(
    readonly path: string,
    readonly session: StoredSession,
    private readonly log: (line: string) => void,
  ) {}

  get id(): string {
    return this.session.id;
  }

  startRun(runId: string, text: string): void {
    this.append({ type: 'run', run_id: runId, input: { type: 'text', text }, at: new Date().toISOString() });
  }

  event(runId: string, seq: number, event: AgentEvent): void {
    this.append({ type: 'event', run_id: runId, seq, event });
  }

  end(runId: string, status: TerminalRunStatus, message?: string): void {
    this.append({
      type: 'status',
      run_id: runId,
      status,
      ...(message !== undefined && { message }),
      at: new Date().toISOString(),
    });
  }

  /** Stores the conversation's wishes after a run. */
  saveModel(model: PreferenceModel): void {
    this.session.model = model;
    this.append({ type: 'model', model, at: new Date().toISOString() });
  }

  /** Flushes what was appended to disk. */
  sync(): void {
    if (this.fd === null) return;
    try {
      fsyncSync(this.fd);
    } catch (err) {
      this.log(`sessions: cannot flush ${this.path}: ${(err as Error).message}`);
    }
  }

  close(): void {
    if (this.fd === null) return;
    this.sync();
    closeSync(this.fd);
    this.fd = null;
  }

  append(record: SessionRecord): void {
    if (this.broken) return;
    try {
      this.fd ??= openSync(this.path, 'a');
      const bytes = Buffer.from(`${JSON.stringify(record)}\n`);
      // A file takes a whole write unless the disk is full; finish a short one rather than leave half a line.
      for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at);
    } catch (err) {
      // The run goes on for the operator; the session file is what is lost, and the log says so.
      this.broken = true;
      this.log(`sessions: cannot write ${this.path}, no more records go to it: ${(err as Error).message}`);
    }
  }
}

/** Ends a last line cut short (a runtime killed mid-write), so the next record is not glued to it and lost. */
function endLastLine(path: string, log: (line: string) => void): void {
  try {
    const bytes = readFileSync(path);
    if (bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a) appendFileSync(path, '\n');
  } catch (err) {
    log(`sessions: cannot check the end of ${path}: ${(err as Error).message}`);
  }
}

function parseRecord(line: string): SessionRecord | null {
  try {
    const parsed = SessionRecordSchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** `20261121-143005-9f2c1a`: sortable by creation time, unique by its random tail. */
function newSessionId(): string {
  const now = new Date();
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}
