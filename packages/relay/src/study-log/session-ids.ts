import { openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const ID_PATTERN = /^s-(\d{8})-(\d{3,})\.jsonl$/;

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10).replaceAll('-', '');
}

/**
 * Issues study session ids like `s-20261121-001` and creates each one's log file exclusively
 * (`wx`), so an id is never reused: not across restarts (existing files are counted), and not
 * between two servers sharing one folder (the exclusive create fails and the next number is tried).
 * Ids are made here from digits only, so a log path can never leave the logs folder.
 */
export class SessionIdAllocator {
  private readonly next = new Map<string, number>();

  constructor(private readonly dir: string) {}

  /** Creates the log file of a new session and returns its id, path and open descriptor. */
  allocate(now: Date): { sessionId: string; path: string; fd: number } {
    const day = utcDay(now);
    let n = this.next.get(day) ?? this.highestOnDisk(day) + 1;
    for (;;) {
      const sessionId = `s-${day}-${String(n).padStart(3, '0')}`;
      const path = join(this.dir, `${sessionId}.jsonl`);
      try {
        const fd = openSync(path, 'wx');
        this.next.set(day, n + 1);
        return { sessionId, path, fd };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        n += 1;
      }
    }
  }

  private highestOnDisk(day: string): number {
    let highest = 0;
    for (const name of readdirSync(this.dir)) {
      const match = ID_PATTERN.exec(name);
      if (match?.[1] === day) highest = Math.max(highest, Number(match[2]));
    }
    return highest;
  }
}
