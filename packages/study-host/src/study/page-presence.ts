import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { Participant } from '@usher/study';
import type { StudyLogIndex } from '../console/study-logs.ts';

/** Of a long log only its end is read: the page's last moments are there. */
const TAIL_BYTES = 4 * 1024 * 1024;

interface LogLine {
  timestamp?: unknown;
  direction?: unknown;
  type?: unknown;
  peer?: unknown;
  payload?: { role?: unknown; resumed?: unknown };
}

/**
 * How long the page of `participant`'s current task had been gone when the server stopped, in
 * milliseconds (0 when it was in its room then), read from the task's study logs: a page is there
 * from its `relay.join` as host until its `relay.left`, and what it sends shows it there; a task
 * that just started counts from its start, as the relay counts `pageJoinMs`; a step the registry
 * holds (`updatedAt`) shows it there too. The stop is the last log's `relay.shutdown`; a log cut
 * short by a crash, or no log at all, counts until `now` (the study's clock). A last log closed
 * for idleness (`relay.session-closed`: the page was gone `idleSessionMs`, or never came within
 * `pageJoinMs`) is gone for good until the page comes back: Infinity.
 */
export function pageAbsence(logs: StudyLogIndex, dir: string, participant: Participant, now: Date): number {
  const taskId = participant.plan.tasks[participant.taskIndex]?.taskId;
  let seenAt = Date.parse(participant.updatedAt);
  const sessions = logs
    .list()
    .filter((s) => s.participantId === participant.id && s.taskId === taskId)
    .sort((a, b) =>
      a.startedAt === b.startedAt ? a.sessionId.localeCompare(b.sessionId) : a.startedAt < b.startedAt ? -1 : 1,
    );
  let end: { type: string; at: number } | null = null;
  for (const session of sessions) {
    let present = false;
    let last: { type: string; at: number } | null = null;
    for (const record of tailRecords(join(dir, `${session.sessionId}.jsonl`))) {
      const at = typeof record.timestamp === 'string' ? Date.parse(record.timestamp) : Number.NaN;
      const type = typeof record.type === 'string' ? record.type : '';
      if (Number.isNaN(at)) continue;
      last = { type, at };
      const role = record.payload?.role;
      if (type === 'study.task' && record.payload?.resumed !== true) seenAt = Math.max(seenAt, at);
      else if (type === 'relay.join' && role === 'host') present = true;
      else if (type === 'relay.left' && role === 'host') {
        present = false;
        seenAt = Math.max(seenAt, at);
        continue;
      }
      if (present || fromPage(record, type)) seenAt = Math.max(seenAt, at);
    }
    end = last;
  }
  if (end?.type === 'relay.session-closed') return Number.POSITIVE_INFINITY;
  const stop = end?.type === 'relay.shutdown' ? end.at : now.getTime();
  return Math.max(0, stop - seenAt);
}

/** A record of what the page (the room's host) did. */
function fromPage(record: LogLine, type: string): boolean {
  if (typeof record.peer === 'string' && record.peer.startsWith('host-')) return true;
  return type === 'participant.action' || (record.direction === 'out' && type !== 'session.started');
}

/** The whole records of a log's last {@link TAIL_BYTES}, in order; none when it cannot be read. */
function tailRecords(path: string): LogLine[] {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return [];
  }
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    const n = readSync(fd, buffer, 0, buffer.length, start);
    const lines = buffer.subarray(0, n).toString('utf8').split('\n');
    // A tail starts mid-record; the last line may be a record still being written.
    if (start > 0) lines.shift();
    const out: LogLine[] = [];
    for (const line of lines) {
      if (!line) continue;
      try {
        out.push(JSON.parse(line) as LogLine);
      } catch {
        // A torn record says nothing of the page.
      }
    }
    return out;
  } catch {
    return [];
  } finally {
    closeSync(fd);
  }
}
