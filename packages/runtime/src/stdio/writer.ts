import type { Writable } from 'node:stream';

/**
 * Writes one JSON value per line to the protocol's output, in order, respecting back-pressure:
 * when the stream's buffer is full, lines wait in memory until it drains. A closed output (the
 * UI went away) drops further lines instead of throwing.
 */
export class LineWriter {
  private readonly queue: string[] = [];
  private waiting = false;
  private closed = false;
  private idle: (() => void)[] = [];

  constructor(
    private readonly output: Writable,
    log: (line: string) => void,
  ) {
    output.on('error', (err) => {
      if (!this.closed) log(`stdio: output closed (${err.message}); dropping what follows`);
      this.closed = true;
      this.queue.length = 0;
      this.settle();
    });
  }

  write(message: unknown): void {
    if (this.closed) return;
    this.queue.push(`${JSON.stringify(message)}\n`);
    this.pump();
  }

  /** Resolves once every queued line has been handed to the stream. */
  flushed(): Promise<void> {
    if (this.queue.length === 0 && !this.waiting) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private pump(): void {
    while (!this.waiting && !this.closed && this.queue.length > 0) {
      const line = this.queue.shift() as string;
      if (!this.output.write(line)) {
        this.waiting = true;
        this.output.once('drain', () => {
          this.waiting = false;
          this.pump();
        });
      }
    }
    if (!this.waiting) this.settle();
  }

  private settle(): void {
    if (this.queue.length > 0 && !this.closed) return;
    for (const resolve of this.idle.splice(0)) resolve();
  }
}
