import { createHmac } from 'node:crypto';

/**
 * A seeded source of randomness for `usher pilot`, on node:crypto: HMAC-SHA256 of the seed over a
 * counter (and a label, so each participant or part draws from its own stream, whatever order
 * the others run in). The same seed gives the same numbers and bytes on every machine.
 */
export class Seeded {
  private counter = 0;
  private buffer = Buffer.alloc(0);

  constructor(
    private readonly seed: string,
    private readonly label = '',
  ) {}

  /** Another stream, fixed by this one's seed and `label`. */
  fork(label: string): Seeded {
    return new Seeded(this.seed, `${this.label}/${label}`);
  }

  /** `n` bytes. */
  bytes = (n: number): Buffer => {
    while (this.buffer.length < n) {
      const block = createHmac('sha256', this.seed)
        .update(`${this.label}#${this.counter++}`)
        .digest();
      this.buffer = Buffer.concat([this.buffer, block]);
    }
    const out = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    return Buffer.from(out);
  };

  /** A number in [0, 1), 53 bits of it. */
  next = (): number => {
    const b = this.bytes(7);
    // 53 bits: 5 from the first byte, 48 from the other six.
    return (((b[0] as number) % 32) * 2 ** 48 + b.readUIntBE(1, 6)) / 2 ** 53;
  };

  /** A whole number in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** One of `items` (which must not be empty). */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }
}
