import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  lstatSync,
  openSync,
  readFileSync,
  writeSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  GroupFlush,
  KeptFileFlush,
  type RegistryFlush,
  type StoredAnswer,
  type StoredScore,
  type StudyRegistry,
} from '@usher/study';

/**
 * The study's questionnaire log: `<logs>/<study id>.questionnaires.jsonl`, one submitted
 * questionnaire a line (packages/study/README.md, "Where answers are kept"), beside the registry's
 * tables. Each record is written inside the registry's transaction, before its commit, and
 * flushed to disk off the event loop (`fdatasync` on libuv's pool, one flush for every record
 * written while the one before ran, as the registry's group commit does): whoever answers the
 * participant waits for {@link durable} first. A write that fails part-way is cut back, so the file
 * stays valid JSONL, and the transaction is rolled back.
 *
 * A crash before the flush may leave the registry with a questionnaire the log lacks (neither was
 * acknowledged); {@link mend}, when the study host starts, adds it from the registry.
 */
export class AnswersLog {
  readonly path: string;
  private readonly flushes: GroupFlush;
  /** The file was created since the last flush: its folder's entry for it is flushed too. */
  private created = false;

  /** `flush`: by default through a descriptor of the log kept open between group flushes ({@link KeptFileFlush}). */
  constructor(logsDir: string, studyId: string, flush: RegistryFlush = new KeptFileFlush()) {
    // A study id is lowercase letters, digits, "-" and "_" (the study file's schema): it cannot leave the folder.
    this.path = join(logsDir, `${studyId}.questionnaires.jsonl`);
    this.flushes = new GroupFlush(async () => {
      const created = this.created;
      this.created = false;
      await flush.sync(this.path);
      if (created) await syncFolder(dirname(this.path));
    });
  }

  /** Appends one record (not yet flushed: see {@link durable}), or throws and leaves the file as it was. */
  append(record: object): void {
    this.write([record]);
    this.flushes.wrote();
  }

  /**
   * Resolves once every record appended before the call is on disk; rejects with a `FlushError`
   * when a flush failed, and from then on.
   */
  durable(): Promise<void> {
    return this.flushes.durable();
  }

  /**
   * Makes the log hold every questionnaire the registry holds of `studyId`, after a crash that
   * came between a questionnaire's commit and the log's flush: a torn last line is cut off, and
   * each questionnaire the registry has and the log lacks is appended, rebuilt from the
   * registry's answers and scores (`recovered: true`; no `page.at`, which only the log kept), and
   * flushed. Returns how many were added. A questionnaire with neither an answer nor a score
   * leaves no row in the registry to rebuild it from.
   */
  mend(registry: Pick<StudyRegistry, 'questionnaireAnswers' | 'questionnaireScores'>, studyId: string): number {
    const held = heldRecords(studyId, registry.questionnaireAnswers(studyId), registry.questionnaireScores(studyId));
    if (held.size === 0 && !existsSync(this.path)) return 0;
    if (existsSync(this.path) && !lstatSync(this.path).isFile()) return 0;
    const logged = this.cutTornTail();
    const missing = [...held].filter(([key]) => !logged.has(key)).map(([, record]) => record);
    if (missing.length === 0) return 0;
    this.write(missing);
    const fd = openSync(this.path, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return missing.length;
  }

  /** Cuts a last line the crash left unfinished; the keys of the records the log holds. */
  private cutTornTail(): Set<string> {
    const logged = new Set<string>();
    if (!existsSync(this.path)) return logged;
    const text = readFileSync(this.path);
    const end = text.lastIndexOf(0x0a) + 1;
    if (end < text.length) {
      const fd = openSync(this.path, 'r+');
      try {
        ftruncateSync(fd, end);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    for (const line of text.subarray(0, end).toString('utf8').split('\n')) {
      if (!line) continue;
      try {
        logged.add(recordKey(JSON.parse(line) as Keyed));
      } catch {
        // Not a record of ours: left as it is, and counted as nothing.
      }
    }
    return logged;
  }

  private write(records: object[]): void {
    const line = Buffer.from(records.map((record) => `${JSON.stringify(record)}\n`).join(''), 'utf8');
    const fd = openSync(this.path, 'a');
    try {
      const length = fstatSync(fd).size;
      if (length === 0) this.created = true;
      try {
        let written = 0;
        while (written < line.length) written += writeSync(fd, line, written, line.length - written);
      } catch (err) {
        ftruncateSync(fd, length);
        throw err;
      }
    } finally {
      closeSync(fd);
    }
  }
}

interface Keyed {
  participantId: string;
  questionnaire: string;
  taskId: string | null;
}

/** Which questionnaire a record is: a participant answers each once (per task, and once after the study). */
const recordKey = (r: Keyed) => JSON.stringify([r.participantId, r.questionnaire, r.taskId ?? null]);

/** The questionnaires the registry holds, as the log's records, by {@link recordKey}. */
function heldRecords(
  studyId: string,
  answers: StoredAnswer[],
  scores: StoredScore[],
): Map<string, Record<string, unknown>> {
  const held = new Map<string, Record<string, unknown> & { answers: unknown[]; scores: unknown[] }>();
  const take = (row: Keyed & { conditionId: string | null }, at: string) => {
    const key = recordKey(row);
    let record = held.get(key);
    if (!record) {
      const { participantId, conditionId, taskId, questionnaire } = row;
      record = { studyId, participantId, conditionId, taskId, questionnaire, answers: [], scores: [] };
      record.submittedAt = at;
      record.recovered = true;
      held.set(key, record);
    }
    return record;
  };
  for (const a of answers) {
    const { sectionId, itemId, kind, value, attentionExpected } = a;
    take(a, a.answeredAt).answers.push({
      sectionId,
      itemId,
      kind,
      value,
      ...(attentionExpected !== null && attentionExpected !== undefined && { attentionExpected }),
    });
  }
  for (const s of scores) {
    take(s, s.scoredAt).scores.push({ instrument: s.instrument, score: s.score });
  }
  return held;
}

/** Flushes a folder's entries (a file just created in it), on libuv's pool. */
async function syncFolder(path: string): Promise<void> {
  const folder = await open(path, 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}
