import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { bookingFromSummary, Catalog } from '@usher/booking';
import { taskSuccess } from '@usher/export';
import type { ConsoleConditionSummary } from '@usher/protocol';
import {
  conditionFeatures,
  type MeasureRecord,
  measureTask,
  type Participant,
  type Study,
  type SummaryInput,
  summariseConditions,
} from '@usher/study';
import type { StudyLogIndex } from './study-logs.ts';

/** A log larger than this is left out of the live summary (the export reads it): a task's log is far smaller. */
const MAX_LOG_BYTES = 64 * 1024 * 1024;

/** One session's records as the measures read them, with what the export takes from them beside. */
interface SessionRecords {
  bytes: number;
  records: MeasureRecord[];
}

/**
 * The console's per-condition summary, live: the collaboration measures of @usher/study
 * (`measureTask`, `summariseConditions`), the functions the export's `collaboration` and
 * `conditions` tables come from, over the study logs as they are now and the registry's
 * participants, with each booking judged by the checker the export uses. A session's records are
 * read once per size of its file: an ended session's log no longer grows.
 */
export class LiveMeasures {
  private readonly cache = new Map<string, SessionRecords>();

  constructor(
    private readonly study: Study,
    private readonly logs: StudyLogIndex,
    private readonly dir: string,
  ) {}

  summary(participants: readonly Participant[]): ConsoleConditionSummary[] {
    // Each participant task's sessions, in the order they started.
    const sessions = new Map<string, string[]>();
    for (const s of this.logs.list()) {
      const key = `${s.participantId}\u0000${s.taskId}`;
      sessions.set(key, [...(sessions.get(key) ?? []), s.sessionId]);
    }
    const inputs: SummaryInput[] = [];
    for (const participant of participants) {
      const seen = new Set<string>();
      for (const planned of participant.plan.tasks) {
        if (seen.has(planned.taskId)) continue;
        seen.add(planned.taskId);
        const condition = this.study.conditions.find((c) => c.id === planned.conditionId);
        const task = this.study.tasks.find((t) => t.id === planned.taskId);
        const ids = sessions.get(`${participant.id}\u0000${planned.taskId}`) ?? [];
        const records = ids.flatMap((id) => this.records(id));
        const started = records.length > 0;
        const measures = started ? measureTask(records, conditionFeatures(condition, planned.taskId)) : null;
        const booked = measures?.submittedBooking != null;
        let success: boolean | null = false;
        if (booked && task) {
          const booking = bookingFromSummary(new Catalog(task.world), measures?.submittedBooking);
          success = booking ? taskSuccess(task, task.world, booking).success : false;
        }
        inputs.push({
          participantId: participant.id,
          conditionId: planned.conditionId,
          agent: condition?.agent ?? 'none',
          pilot: records.some((r) => r.type === 'study.task' && (r.payload as { pilot?: unknown })?.pilot === true),
          measures,
          booked,
          success,
          timeOnTaskS: started ? timeOnTask(records) : null,
        });
      }
    }
    return summariseConditions(
      inputs,
      this.study.conditions.map((c) => c.id),
    );
  }

  /** A session's whole records (a line being written is left out), read again only when its file grew. */
  private records(sessionId: string): MeasureRecord[] {
    const path = join(this.dir, `${sessionId}.jsonl`);
    let bytes: number;
    try {
      bytes = statSync(path).size;
    } catch {
      return [];
    }
    const known = this.cache.get(sessionId);
    if (known?.bytes === bytes) return known.records;
    if (bytes > MAX_LOG_BYTES) return [];
    const text = readFileSync(path, 'utf8');
    const records: MeasureRecord[] = [];
    for (const line of text.slice(0, text.lastIndexOf('\n') + 1).split('\n')) {
      if (line === '') continue;
      try {
        const r = JSON.parse(line) as Record<string, unknown>;
        const at = Date.parse(String(r.timestamp));
        if (typeof r.type !== 'string' || typeof r.direction !== 'string' || Number.isNaN(at)) continue;
        records.push({
          at,
          direction: r.direction,
          type: r.type,
          peer: typeof r.peer === 'string' ? r.peer : null,
          payload: r.type === 'state.updated' ? trimState(r.payload) : r.payload,
        });
      } catch {
        // A line that is not a record is left out, as the export leaves it out.
      }
    }
    this.cache.set(sessionId, { bytes, records });
    return records;
  }
}

/** What the measures read of a `state.updated`: its source, action, stage and booking summary (its lists are the bulk). */
function trimState(payload: unknown): unknown {
  const p = (payload ?? {}) as {
    source?: unknown;
    action?: unknown;
    uiSpec?: { stage?: unknown; state?: { booking?: unknown } };
  };
  return {
    source: p.source,
    action: p.action,
    uiSpec: p.uiSpec ? { stage: p.uiSpec.stage, state: { booking: p.uiSpec.state?.booking } } : null,
  };
}

/** Seconds from the task's first `study.task` to its `study.task-ended` (or its last record), as `time_on_task_s`. */
function timeOnTask(records: readonly MeasureRecord[]): number | null {
  const at = (type: string) => records.filter((r) => r.type === type).map((r) => r.at);
  const starts = at('study.task');
  if (starts.length === 0) return null;
  const ends = at('study.task-ended');
  const end = ends.length > 0 ? Math.max(...ends) : Math.max(...records.map((r) => r.at));
  return Math.round(end - Math.min(...starts)) / 1000;
}
