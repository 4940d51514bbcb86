/** A flush failed: what was written before it, and anything after, cannot be said to be on disk. */
export class FlushError extends Error {
  override readonly name = 'FlushError';
}

interface Waiter {
  /** The count of writes this waiter needs on disk. */
  upTo: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * Group commit: writes are made at once (in the page cache), and whoever must answer only once
 * they are on disk waits for {@link durable}, which resolves after a flush that began after every
 * write made before the call. One flush runs at a time, off the caller's thread (`flush` returns a
 * promise, as `fs.fdatasync` on libuv's pool does); whoever asks while it runs waits for the next,
 * which covers every write made meanwhile, so many participants' writes share one flush.
 *
 * A flush that fails fails everyone waiting for it and every flush after: the kernel may have
 * dropped the pages it could not write, and a later flush that succeeds would not bring them back,
 * so nothing written since the last good flush can be promised (the server's operator must look).
 */
export class GroupFlush {
  private written = 0;
  private flushed = 0;
  private running = false;
  private failed: FlushError | null = null;
  private waiting: Waiter[] = [];

  constructor(private readonly flush: () => Promise<void>) {}

  /** Counts a write made just now: the next {@link durable} waits for a flush begun after it. */
  wrote(): void {
    this.written += 1;
  }

  /** Resolves once every write counted before this call is on disk; rejects with a {@link FlushError} when a flush failed. */
  durable(): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    const upTo = this.written;
    if (upTo <= this.flushed) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiting.push({ upTo, resolve, reject });
      this.start();
    });
  }

  /** Flushes made and writes counted, for tests and the bench. */
  stats(): { written: number; flushed: number } {
    return { written: this.written, flushed: this.flushed };
  }

  private start(): void {
    if (this.running) return;
    this.running = true;
    // Every write counted until now is in the file before the flush begins.
    const upTo = this.written;
    Promise.resolve()
      .then(() => this.flush())
      .then(
        () => {
          this.flushed = upTo;
          this.settle(upTo, null);
        },
        (err: unknown) => {
          this.failed = new FlushError(`flushing to disk failed: ${(err as Error)?.message ?? String(err)}`);
          this.settle(Number.POSITIVE_INFINITY, this.failed);
        },
      )
      .finally(() => {
        this.running = false;
        if (this.waiting.length > 0) this.start();
      });
  }

  private settle(upTo: number, err: FlushError | null): void {
    const still: Waiter[] = [];
    for (const waiter of this.waiting) {
      if (waiter.upTo > upTo) still.push(waiter);
      else if (err) waiter.reject(err);
      else waiter.resolve();
    }
    this.waiting = still;
  }
}
