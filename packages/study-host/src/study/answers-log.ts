import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The study's questionnaire log: `<logs>/<study id>.questionnaires.jsonl`, one submitted
 * questionnaire a line (packages/study/README.md, "Where answers are kept"), beside the registry's
 * tables. Each record is written and synced to disk before the submission is acknowledged; a
 * write that fails part-way is cut back, so the file stays valid JSONL.
 */
export class AnswersLog {
  readonly path: string;

  constructor(logsDir: string, studyId: string) {
    // A study id is lowercase letters, digits, "-" and "_" (the study file's schema): it cannot leave the folder.
    this.path = join(logsDir, `${studyId}.questionnaires.jsonl`);
  }

  /** Appends one record, or throws and leaves the file as it was. */
  append(record: object): void {
    const line = Buffer.from(`${JSON.stringify(record)}\n`, 'utf8');
    const fd = openSync(this.path, 'a');
    try {
      const length = fstatSync(fd).size;
      try {
        let written = 0;
        while (written < line.length) written += writeSync(fd, line, written, line.length - written);
        fsyncSync(fd);
      } catch (err) {
        ftruncateSync(fd, length);
        throw err;
      }
    } finally {
      closeSync(fd);
    }
  }
}
