import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionSummary } from '@usher/protocol';

/** Session ids are the relay's (`s-20261121-001`): digits only, so a path made of one stays in the folder. */
const SESSION_FILE = /^(s-\d{8}-\d{3,})\.jsonl$/;
export const SESSION_ID = /^s-\d{8}-\d{3,}$/;

/**
 * A study log's first two lines, the agent's manifest (under 6 KiB with the most scripted
 * mistakes a condition may have) and `study.task` (a few hundred bytes), are at most this long.
 */
const FIRST_LINE_MAX = 16 * 1024;
/** A log larger than this is not sent to the console whole (a task's log is well under 1 MiB a minute). */
export const MAX_REPLAY_BYTES = 64 * 1024 * 1024;

/**
 * The study logs of one study in the logs folder, found by their first record (`study.task`,
 * written by the server when a participant's task starts). Each file's first line is read once
 * and remembered; files of other studies, of sessions not opened by the server, or unreadable
 * ones are left out.
 */
export class StudyLogIndex {
  private readonly known = new Map<string, SessionSummary | null>();

  constructor(
    private readonly dir: string,
    private readonly studyId: string,
  ) {}

  /** The study's sessions, oldest first. */
  list(): SessionSummary[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    const out: SessionSummary[] = [];
    for (const name of names.sort()) {
      const match = SESSION_FILE.exec(name);
      if (!match) continue;
      const sessionId = match[1] as string;
      let summary = this.known.get(sessionId);
      if (summary === undefined) {
        summary = this.summarize(sessionId);
        // A file whose first line is not whole yet is looked at again next time.
        if (summary !== undefined) this.known.set(sessionId, summary);
      }
      if (summary) out.push({ ...summary, bytes: this.sizeOf(sessionId) });
    }
    return out;
  }

  /** The session's summary, or null when it is not one of this study's. */
  find(sessionId: string): SessionSummary | null {
    if (!SESSION_ID.test(sessionId)) return null;
    return this.list().find((s) => s.sessionId === sessionId) ?? null;
  }

  /** The session's log as text (whole lines only: a record being written is left out). */
  read(sessionId: string): string {
    if (!SESSION_ID.test(sessionId)) throw new Error(`"${sessionId}" is not a session id`);
    const path = join(this.dir, `${sessionId}.jsonl`);
    if (statSync(path).size > MAX_REPLAY_BYTES) {
      throw new Error(`the log of ${sessionId} is larger than ${MAX_REPLAY_BYTES / 1024 / 1024} MiB`);
    }
    const text = readFileSync(path, 'utf8');
    const end = text.lastIndexOf('\n');
    return end < 0 ? '' : text.slice(0, end + 1);
  }

  private sizeOf(sessionId: string): number {
    try {
      return statSync(join(this.dir, `${sessionId}.jsonl`)).size;
    } catch {
      return 0;
    }
  }

  /** The session's summary; null when it is not one of this study's; undefined while its first line is not whole yet. */
  private summarize(sessionId: string): SessionSummary | null | undefined {
    let fd: number;
    try {
      fd = openSync(join(this.dir, `${sessionId}.jsonl`), 'r');
    } catch {
      return undefined;
    }
    try {
      const buffer = Buffer.alloc(FIRST_LINE_MAX);
      const n = readSync(fd, buffer, 0, FIRST_LINE_MAX, 0);
      // The task's record is the first, or the second after the agent's manifest (`agent.manifest`).
      let from = 0;
      let first: { type?: unknown; timestamp?: unknown; payload?: Record<string, unknown> } = {};
      for (let line = 0; line < 2; line++) {
        const newline = buffer.subarray(from, n).indexOf(10);
        if (newline < 0) return n < FIRST_LINE_MAX ? undefined : null;
        first = JSON.parse(buffer.subarray(from, from + newline).toString('utf8')) as typeof first;
        from += newline + 1;
        if (first.type !== 'agent.manifest') break;
      }
      const task = first.payload ?? {};
      if (first.type !== 'study.task' || task.studyId !== this.studyId) return null;
      const text = (v: unknown) => (typeof v === 'string' ? v : '');
      return {
        sessionId,
        participantId: text(task.participantId),
        conditionId: text(task.conditionId),
        taskId: text(task.taskId),
        startedAt: text(first.timestamp),
        bytes: n,
        resumed: task.resumed === true,
      };
    } catch {
      return null;
    } finally {
      closeSync(fd);
    }
  }
}
