/**
 * The first failure anywhere in a run (a socket closed, an unexpected frame). Failures happen in
 * socket callbacks, where throwing would crash the process; instead they trip the wire, and every
 * wait of the run goes through {@link guard}, so the run ends with that error.
 */
export class Tripwire {
  private error: Error | null = null;
  private readonly waiting = new Set<(err: Error) => void>();

  trip(err: Error): void {
    if (this.error) return;
    this.error = err;
    for (const reject of this.waiting) reject(err);
  }

  /** Settles as `promise` does, unless the wire trips first. */
  guard<T>(promise: Promise<T>): Promise<T> {
    if (this.error) return Promise.reject(this.error);
    return new Promise<T>((resolve, reject) => {
      this.waiting.add(reject);
      promise.then(resolve, reject).finally(() => this.waiting.delete(reject));
    });
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Settles as `promise` does, or rejects with `message` after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
