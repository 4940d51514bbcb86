import { readFileSync } from 'node:fs';
import { describeZodError } from '@usher/protocol';
import { type Episode, EpisodeSchema } from './episode.ts';

/** A line of an episode file that is not a valid record; `line` is 1-based. */
export interface EpisodeProblem {
  line: number;
  message: string;
}

export interface EpisodeReadResult {
  /** The valid records, in file order. */
  records: Episode[];
  /** Every line that was skipped, and every break in the `seq` numbering. */
  problems: EpisodeProblem[];
  /**
   * True when the last line has no newline and is not a valid record: the writer died mid-line
   * (its problem is listed too). Every record before it is intact.
   */
  truncated: boolean;
}

/**
 * Reads and validates an episode file written by {@link EpisodicLog}. A bad line never throws: it
 * is listed in `problems` and the reading goes on, so a crashed session's log is still usable.
 * Only a file that cannot be read at all (missing, unreadable) throws.
 */
export function readEpisodes(path: string): EpisodeReadResult {
  return parseEpisodes(readFileSync(path, 'utf8'));
}

/** {@link readEpisodes} on text already in memory. */
export function parseEpisodes(text: string): EpisodeReadResult {
  const records: Episode[] = [];
  const problems: EpisodeProblem[] = [];
  let truncated = false;
  const lines = text.split('\n');
  // A file that ends with a newline splits into a last empty string, which is no line at all.
  const unterminated = lines.at(-1) !== '';
  if (!unterminated) lines.pop();
  lines.forEach((raw, index) => {
    const line = index + 1;
    const isLast = index === lines.length - 1;
    if (raw.trim() === '') {
      problems.push({ line, message: 'empty line' });
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      if (isLast && unterminated) {
        truncated = true;
        problems.push({ line, message: 'truncated last line (the writer stopped mid-record)' });
      } else {
        problems.push({ line, message: 'not valid JSON' });
      }
      return;
    }
    const parsed = EpisodeSchema.safeParse(json);
    if (!parsed.success) {
      problems.push({ line, message: `not a valid episode: ${describeZodError(parsed.error)}` });
      return;
    }
    const previous = records.at(-1);
    const expected = previous === undefined ? 0 : previous.seq + 1;
    if (parsed.data.seq !== expected) {
      problems.push({ line, message: `seq ${parsed.data.seq} where ${expected} was expected` });
    }
    records.push(parsed.data);
  });
  return { records, problems, truncated };
}
