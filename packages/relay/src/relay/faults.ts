import { capText } from '@usher/protocol';

/** How long the same warning is held back after it was reported. */
const HOLD_MS = 10_000;
/** Keys remembered at most: a flood of distinct keys empties the memory rather than growing it. */
const MAX_KEYS = 10_000;

/**
 * Reports a line at most once every 10 s per key, saying how many like it were held back, so a
 * stranger hammering the door (or repeating a frame that faults) cannot flood the server's log.
 */
export class HeldWarnings {
  private readonly seen = new Map<string, { at: number; held: number }>();

  constructor(
    private readonly warn: (line: string) => void,
    private readonly now: () => Date,
  ) {}

  once(key: string, line: string): void {
    const now = this.now().getTime();
    const last = this.seen.get(key);
    if (last && now - last.at < HOLD_MS) {
      last.held += 1;
      return;
    }
    if (this.seen.size > MAX_KEYS) this.seen.clear();
    this.warn(
      last?.held ? `${line} (and ${last.held} more like it in the last ${Math.round((now - last.at) / 1000)} s)` : line,
    );
    this.seen.set(key, { at: now, held: 0 });
  }
}

/** A thrown value's kind (its name and message, to tell repeats apart) and its stack, whatever was thrown. */
export function describeFault(err: unknown): { kind: string; stack: string } {
  try {
    const error = err as Error | undefined;
    const kind = `${error?.name ?? typeof err}: ${capText(String(error?.message ?? err), 200)}`;
    return { kind, stack: String(error?.stack ?? err) };
  } catch {
    return { kind: 'unprintable', stack: 'a value that cannot be printed was thrown' };
  }
}
