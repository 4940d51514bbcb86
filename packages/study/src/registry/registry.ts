import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, fdatasyncSync, mkdirSync, openSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { PARTICIPANT_STATUSES } from '@usher/protocol';
import Database from 'better-sqlite3';
import { type Plan, planParticipant } from '../assignment/assign.ts';
import type { StudyFile } from '../study-file/schema.ts';
import { GroupFlush } from './group-flush.ts';
import { KeptFileFlush } from './kept-flush.ts';
import {
  type AcceptedChange,
  createManifestTable,
  readManifests,
  type StoredManifest,
  writeManifest,
} from './manifest-table.ts';
import {
  createQuestionnaireTables,
  insertQuestionnaire,
  type QuestionnaireRecord,
  readAnswers,
  readScores,
  type StoredAnswer,
  type StoredScore,
} from './questionnaire-tables.ts';

/** Where a participant is in the study's flow (the statuses of the participant's API). */
export type ParticipantStatus = (typeof PARTICIPANT_STATUSES)[number];

/** What the recruitment platform's link said about the participant (recorded as given, bounded). */
export interface Recruitment {
  PROLIFIC_PID?: string;
  STUDY_ID?: string;
  SESSION_ID?: string;
  participant?: string;
}

export interface Participant {
  /** The registry's own id for the participant (unguessable). */
  id: string;
  studyId: string;
  /** Who the recruitment link says they are (`PROLIFIC_PID`, else `participant`), if it said. */
  externalId: string | null;
  recruitment: Recruitment;
  plan: Plan;
  /** The relay room that is theirs alone, made by the server (unguessable). */
  room: string;
  status: ParticipantStatus;
  /** Which task of their plan they are on (0-based). */
  taskIndex: number;
  createdAt: string;
  updatedAt: string;
}

/** How long a participant who has not consented yet still counts for balancing conditions (ms). */
export const CONSENT_GRACE_MS = 30 * 60_000;

/** The recruitment parameters the registry records, and how long each may be. */
const RECRUITMENT_KEYS = ['PROLIFIC_PID', 'STUDY_ID', 'SESSION_ID', 'participant'] as const;
const MAX_PARAM = 128;

/** Picks the recruitment parameters out of a link's query, refusing nothing but keeping only what is sane. */
export function recruitmentFrom(query: URLSearchParams): Recruitment {
  const out: Recruitment = {};
  for (const key of RECRUITMENT_KEYS) {
    const value = query.get(key);
    if (value !== null && /^[\w.:@-]{1,128}$/.test(value) && value.length <= MAX_PARAM) out[key] = value;
  }
  return out;
}

interface Row {
  id: string;
  study_id: string;
  external_id: string | null;
  recruitment: string;
  condition_id: string | null;
  plan: string;
  room: string;
  status: ParticipantStatus;
  task_index: number;
  created_at: string;
  updated_at: string;
  /** SHA-256 (hex) of the key the participant's browser holds to come back; null for records made before keys. */
  return_key?: string | null;
}

/** How the registry flushes its write-ahead log to disk; tests pass one that records, holds or fails. */
export interface RegistryFlush {
  /** Flushes the file at `path` to disk (`fdatasync`), off the caller's thread. */
  sync(path: string): Promise<void>;
}

/** `fdatasync` of the file on libuv's thread pool: the event loop goes on meanwhile. */
export const NODE_REGISTRY_FLUSH: RegistryFlush = {
  async sync(path) {
    const file = await open(path, 'r');
    try {
      await file.datasync();
    } finally {
      await file.close();
    }
  },
};

/**
 * The study registry: every participant, their assignment and their progress, in SQLite (WAL),
 * so a server restart mid-study loses no participant and reassigns no one. Its writes are
 * transactions; an assignment reads the counts and inserts the participant in one, so two
 * participants arriving at once cannot both take the last place of a condition.
 *
 * Durability is a group commit: a write is committed to the write-ahead log at once (SQLite's
 * `synchronous = NORMAL`, no flush at the commit), and {@link durable} resolves once a flush of
 * the log (`fdatasync` on libuv's pool) begun after it is done, so whoever answers a participant
 * waits for it first (the study's routes do, for every answer): what is acknowledged is on disk, as
 * with a flush at each commit, while the event loop goes on and one flush serves every write made
 * meanwhile. The log is appended in commit order, so a flush that covers a write covers every
 * write before it. Checkpoints (SQLite's own, every 1,000 pages and at close) flush the log and
 * the database as before. The rare writes no participant waits for (the agent manifest, the
 * removal of arrivals) are flushed before they return.
 */
export class StudyRegistry {
  private readonly db: Database.Database;
  private readonly walPath: string | null;
  private readonly flushes: GroupFlush;
  /**
   * Each statement compiled once: they are the fixed SQL of this class, so as many as its methods
   * hold, and SQLite's compiling of one again for each call (the relay asks whose room a call is in
   * for each agent's tool call) cost more than running it.
   */
  private readonly statements = new Map<string, Database.Statement>();

  /** The flush this registry made for itself (none when one was given), closed with it. */
  private readonly ownFlush: KeptFileFlush | null;

  /**
   * Opens (or creates) the registry at `path` (`:memory:` for tests that need no file). Without
   * `flush`, the write-ahead log is flushed through a descriptor kept open between group flushes
   * ({@link KeptFileFlush}).
   */
  constructor(path: string, flush?: RegistryFlush) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.walPath = path === ':memory:' ? null : `${path}-wal`;
    const walPath = this.walPath;
    this.ownFlush = flush ? null : new KeptFileFlush();
    const flusher = flush ?? (this.ownFlush as KeptFileFlush);
    this.flushes = new GroupFlush(walPath === null ? async () => {} : () => flusher.sync(walPath));
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS participants (
        id          TEXT PRIMARY KEY,
        study_id    TEXT NOT NULL,
        external_id TEXT,
        recruitment TEXT NOT NULL,
        condition_id TEXT,
        plan        TEXT NOT NULL,
        room        TEXT NOT NULL UNIQUE,
        status      TEXT NOT NULL,
        task_index  INTEGER NOT NULL DEFAULT 0,
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL,
        return_key  TEXT
      );
      CREATE UNIQUE INDEX IF NOT EXISTS participants_external ON participants (study_id, external_id)
        WHERE external_id IS NOT NULL;
      CREATE INDEX IF NOT EXISTS participants_study ON participants (study_id);
      CREATE INDEX IF NOT EXISTS participants_arrivals ON participants (study_id, status, created_at);
      -- Arrivals removed while still at consent (expireArrivals), per condition ('' within subjects).
      CREATE TABLE IF NOT EXISTS expired_arrivals (
        study_id     TEXT NOT NULL,
        condition_id TEXT NOT NULL,
        arrivals     INTEGER NOT NULL,
        PRIMARY KEY (study_id, condition_id)
      );
    `);
    createQuestionnaireTables(this.db);
    createManifestTable(this.db);
    // A registry made before return keys gets the column; its participants return as before.
    const columns = this.statement<[], { name: string }>('PRAGMA table_info(participants)').all();
    if (!columns.some((c) => c.name === 'return_key')) {
      this.db.exec('ALTER TABLE participants ADD COLUMN return_key TEXT');
    }
  }

  /**
   * Whether `key` is the return key of the participant's first browser: true or false, or null
   * for a participant recorded before return keys (nothing to compare with).
   */
  returnKeyMatches(participantId: string, key: string | undefined): boolean | null {
    const row = this.statement<[string], { return_key: string | null }>(
      'SELECT return_key FROM participants WHERE id = ?',
    ).get(participantId);
    if (!row?.return_key) return null;
    if (!key || key.length > 256) return false;
    const given = Buffer.from(hashKey(key), 'hex');
    const stored = Buffer.from(row.return_key, 'hex');
    return given.length === stored.length && timingSafeEqual(given, stored);
  }

  /**
   * A participant opening the study link: a returning one (same external id) gets their own
   * record back, whatever their status; a new one is assigned (StudyFile.assignment) and given a
   * room of their own.
   */
  admit(
    study: Pick<StudyFile, 'id' | 'tasks' | 'conditions' | 'assignment'>,
    arrival: {
      recruitment: Recruitment;
      linkCondition?: string;
      now: Date;
      random?: () => number;
      /** Random bytes for the id, room and return key (node:crypto's by default; a pilot's seeded ones). */
      bytes?: (n: number) => Buffer;
    },
  ): { participant: Participant; returning: boolean; returnKey?: string } {
    const externalId = arrival.recruitment.PROLIFIC_PID ?? arrival.recruitment.participant ?? null;
    return this.db
      .transaction(() => {
        if (externalId !== null) {
          const known = this.statement<[string, string], Row>(
            'SELECT * FROM participants WHERE study_id = ? AND external_id = ?',
          ).get(study.id, externalId);
          if (known) return { participant: fromRow(known), returning: true };
        }
        const counts = this.conditionCounts(study, arrival.now);
        const plan = planParticipant(study, counts, {
          random: arrival.random ?? Math.random,
          linkCondition: arrival.linkCondition,
        });
        const at = arrival.now.toISOString();
        // The participant's browser keeps this (a cookie) to come back; the registry keeps its hash.
        const bytes = arrival.bytes ?? randomBytes;
        const returnKey = bytes(24).toString('base64url');
        const row: Row = {
          id: `p-${bytes(8).toString('hex')}`,
          study_id: study.id,
          external_id: externalId,
          recruitment: JSON.stringify(arrival.recruitment),
          condition_id: plan.conditionId,
          plan: JSON.stringify(plan),
          room: `r-${bytes(12).toString('base64url')}`,
          status: 'consent',
          task_index: 0,
          created_at: at,
          updated_at: at,
          return_key: hashKey(returnKey),
        };
        this.statement(
          `INSERT INTO participants (id, study_id, external_id, recruitment, condition_id, plan, room, status, task_index, created_at, updated_at, return_key)
           VALUES (@id, @study_id, @external_id, @recruitment, @condition_id, @plan, @room, @status, @task_index, @created_at, @updated_at, @return_key)`,
        ).run(row);
        this.flushes.wrote();
        return { participant: fromRow(row), returning: false, returnKey };
      })
      .immediate();
  }

  get(id: string): Participant | null {
    const row = this.statement<[string], Row>('SELECT * FROM participants WHERE id = ?').get(id);
    return row ? fromRow(row) : null;
  }

  byRoom(room: string): Participant | null {
    const row = this.statement<[string], Row>('SELECT * FROM participants WHERE room = ?').get(room);
    return row ? fromRow(row) : null;
  }

  /** Every participant of a study, oldest first. */
  participants(studyId: string): Participant[] {
    return this.statement<[string], Row>('SELECT * FROM participants WHERE study_id = ? ORDER BY created_at, rowid')
      .all(studyId)
      .map(fromRow);
  }

  /**
   * Moves a participant on in the flow. With `from`, only when they are still where the caller saw
   * them (status and task), so two steps arriving together cannot both act on the same old
   * status; false when nothing was changed.
   */
  progress(
    id: string,
    change: { status: ParticipantStatus; taskIndex?: number },
    now: Date,
    from?: { status: ParticipantStatus; taskIndex: number },
  ): boolean {
    const result = from
      ? this.statement(
          'UPDATE participants SET status = ?, task_index = COALESCE(?, task_index), updated_at = ? WHERE id = ? AND status = ? AND task_index = ?',
        ).run(change.status, change.taskIndex ?? null, now.toISOString(), id, from.status, from.taskIndex)
      : this.statement(
          'UPDATE participants SET status = ?, task_index = COALESCE(?, task_index), updated_at = ? WHERE id = ?',
        ).run(change.status, change.taskIndex ?? null, now.toISOString(), id);
    if (result.changes > 0) this.flushes.wrote();
    return result.changes === 1;
  }

  /**
   * Stores a submitted questionnaire (its answers and scores) and moves the participant on, in one
   * transaction, only when they are still where the caller saw them (as {@link progress}).
   * `beforeCommit` runs last inside it (the study's questionnaire log is written there): when it
   * throws, nothing is stored. False when the participant had moved on (nothing stored).
   */
  recordQuestionnaire(
    record: QuestionnaireRecord,
    change: { status: ParticipantStatus; taskIndex?: number },
    from: { status: ParticipantStatus; taskIndex: number },
    now: Date,
    beforeCommit: () => void = () => {},
  ): boolean {
    return this.db
      .transaction(() => {
        if (!this.progress(record.participantId, change, now, from)) return false;
        insertQuestionnaire(this.db, record, now.toISOString());
        this.flushes.wrote();
        beforeCommit();
        return true;
      })
      .immediate();
  }

  /** Every stored questionnaire answer of a study, in the order given. */
  questionnaireAnswers(studyId: string): StoredAnswer[] {
    return readAnswers(this.db, studyId);
  }

  /** Every instrument score of a study, in the order scored. */
  questionnaireScores(studyId: string): StoredScore[] {
    return readScores(this.db, studyId);
  }

  /**
   * Participants per condition so far, in the study's order (within subjects: all in the first).
   * With `now`, what assignment balances on: those who consented, and those still reading the
   * consent text who arrived in the last {@link CONSENT_GRACE_MS} (so a burst of arrivals is spread
   * too); someone who opened the link and left without consenting does not hold a place for ever.
   */
  conditionCounts(study: Pick<StudyFile, 'id' | 'conditions'>, now?: Date): number[] {
    const rows = now
      ? this.statement<[string, string], { condition_id: string | null; n: number }>(
          `SELECT condition_id, COUNT(*) AS n FROM participants
             WHERE study_id = ? AND (status != 'consent' OR created_at > ?) GROUP BY condition_id`,
        ).all(study.id, new Date(now.getTime() - CONSENT_GRACE_MS).toISOString())
      : this.statement<[string], { condition_id: string | null; n: number }>(
          'SELECT condition_id, COUNT(*) AS n FROM participants WHERE study_id = ? GROUP BY condition_id',
        ).all(study.id);
    const counts = study.conditions.map(() => 0);
    for (const { condition_id, n } of rows) {
      const i = condition_id === null ? 0 : study.conditions.findIndex((c) => c.id === condition_id);
      if (i >= 0) counts[i] = (counts[i] ?? 0) + n;
    }
    return counts;
  }

  /**
   * Removes the study's participants still at consent who arrived at or before `before` (they
   * opened the study link and never consented), adding them to the study's count of expired
   * arrivals per condition, in one transaction; returns how many were removed. Anyone may open the
   * link, so without this such rows would grow without bound. Nothing else is lost: they have no
   * answers, no session and no log yet, and assignment stops counting them after
   * {@link CONSENT_GRACE_MS}, so removing them later changes no one's condition. One who comes back
   * through the link is admitted again as new (nothing of theirs is found to return to).
   */
  expireArrivals(studyId: string, before: Date): number {
    const at = before.toISOString();
    const removed = this.db
      .transaction(() => {
        this.statement(
          `INSERT INTO expired_arrivals (study_id, condition_id, arrivals)
             SELECT study_id, COALESCE(condition_id, ''), COUNT(*) FROM participants
             WHERE study_id = ? AND status = 'consent' AND created_at <= ?
             GROUP BY study_id, COALESCE(condition_id, '')
             ON CONFLICT (study_id, condition_id) DO UPDATE SET arrivals = arrivals + excluded.arrivals`,
        ).run(studyId, at);
        return this.statement(
          "DELETE FROM participants WHERE study_id = ? AND status = 'consent' AND created_at <= ?",
        ).run(studyId, at).changes;
      })
      .immediate();
    if (removed > 0) this.flushNow();
    return removed;
  }

  /** How many arrivals {@link expireArrivals} removed from the study, per condition (null within subjects). */
  expiredArrivals(studyId: string): Array<{ conditionId: string | null; arrivals: number }> {
    return this.statement<[string], { condition_id: string; arrivals: number }>(
      'SELECT condition_id, arrivals FROM expired_arrivals WHERE study_id = ? ORDER BY condition_id',
    )
      .all(studyId)
      .map((row) => ({ conditionId: row.condition_id === '' ? null : row.condition_id, arrivals: row.arrivals }));
  }

  /** The agent manifests the study ran with, oldest first (the last is the one in force). */
  agentManifests(studyId: string): StoredManifest[] {
    return readManifests(this.db, studyId);
  }

  /**
   * Records the agent manifest the study runs with from now on: before its first participant it
   * replaces any earlier one (nobody met that agent); after, it follows them, with the change that
   * was accepted.
   */
  recordAgentManifest(
    studyId: string,
    record: { hash: string; manifest: unknown; acceptedChange: AcceptedChange | null },
    now: Date,
  ): void {
    writeManifest(this.db, { studyId, ...record, at: now.toISOString() }, !this.hasParticipants(studyId));
    this.flushNow();
  }

  /**
   * Resolves once every write made before the call is on disk (group commit, see the class);
   * rejects with a `FlushError` when a flush failed, and from then on: the registry can no longer
   * promise that anything is on disk.
   */
  durable(): Promise<void> {
    return this.flushes.durable();
  }

  /** Writes made and flushed so far (the bench and tests read it). */
  flushStats(): { written: number; flushed: number } {
    return this.flushes.stats();
  }

  /** Flushes the write-ahead log on this thread, for the rare writes no participant waits for. */
  private flushNow(): void {
    if (this.walPath === null) return;
    const fd = openSync(this.walPath, 'r');
    try {
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /** The statement of `sql`, compiled at its first use. */
  private statement<P extends unknown[] | object = unknown[], R = unknown>(sql: string): Database.Statement<P, R> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement as unknown as Database.Statement<P, R>;
  }

  /** Whether a participant of the study has consented yet (its agent manifest is then frozen). */
  hasParticipants(studyId: string): boolean {
    const row = this.statement<[string], { n: number }>(
      "SELECT COUNT(*) AS n FROM participants WHERE study_id = ? AND status != 'consent'",
    ).get(studyId);
    return (row?.n ?? 0) > 0;
  }

  close(): void {
    this.db.close();
    this.ownFlush?.close();
  }
}

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function fromRow(row: Row): Participant {
  return {
    id: row.id,
    studyId: row.study_id,
    externalId: row.external_id,
    recruitment: JSON.parse(row.recruitment) as Recruitment,
    plan: JSON.parse(row.plan) as Plan,
    room: row.room,
    status: row.status,
    taskIndex: row.task_index,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
