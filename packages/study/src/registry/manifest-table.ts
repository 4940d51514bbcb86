import type Database from 'better-sqlite3';

/**
 * The agent manifests a study ran with (`usher serve --study`, study-host's `supervisor/manifest.ts`),
 * oldest first: the first is the one its first participant met; a later one is there only because
 * a change was accepted (`--accept-agent-change`), and says so.
 */
export interface StoredManifest {
  studyId: string;
  /** SHA-256 (hex) of the manifest's canonical JSON. */
  hash: string;
  manifest: unknown;
  recordedAt: string;
  /** Why this manifest followed another one mid-study: what changed, from which, when. */
  acceptedChange: AcceptedChange | null;
}

export interface AcceptedChange {
  /** The hash of the manifest it replaced. */
  from: string;
  /** What changed, one `field: before → after` each. */
  changes: string[];
  at: string;
}

interface Row {
  study_id: string;
  hash: string;
  manifest: string;
  recorded_at: string;
  accepted_change: string | null;
}

export function createManifestTable(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS agent_manifests (
      study_id        TEXT NOT NULL,
      seq             INTEGER NOT NULL,
      hash            TEXT NOT NULL,
      manifest        TEXT NOT NULL,
      recorded_at     TEXT NOT NULL,
      accepted_change TEXT,
      PRIMARY KEY (study_id, seq)
    );
  `);
}

/** Every manifest of the study, oldest first. */
export function readManifests(db: Database.Database, studyId: string): StoredManifest[] {
  return db
    .prepare<[string], Row>('SELECT * FROM agent_manifests WHERE study_id = ? ORDER BY seq')
    .all(studyId)
    .map((row) => ({
      studyId: row.study_id,
      hash: row.hash,
      manifest: JSON.parse(row.manifest) as unknown,
      recordedAt: row.recorded_at,
      acceptedChange: row.accepted_change === null ? null : (JSON.parse(row.accepted_change) as AcceptedChange),
    }));
}

/**
 * Records the manifest a study runs with now: with `replace` (no participant has met any yet), it
 * is the study's only one; otherwise it follows the others, with the change that was accepted.
 */
export function writeManifest(
  db: Database.Database,
  record: { studyId: string; hash: string; manifest: unknown; at: string; acceptedChange: AcceptedChange | null },
  replace: boolean,
): void {
  db.transaction(() => {
    if (replace) db.prepare('DELETE FROM agent_manifests WHERE study_id = ?').run(record.studyId);
    const { n } = db
      .prepare<[string], { n: number }>('SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM agent_manifests WHERE study_id = ?')
      .get(record.studyId) as { n: number };
    db.prepare(
      'INSERT INTO agent_manifests (study_id, seq, hash, manifest, recorded_at, accepted_change) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(
      record.studyId,
      n,
      record.hash,
      JSON.stringify(record.manifest),
      record.at,
      record.acceptedChange && JSON.stringify(record.acceptedChange),
    );
  }).immediate();
}
