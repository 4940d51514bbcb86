/** A growable list of numbers (latencies in µs) kept in a typed array, so a million samples stay cheap. */
export class Samples {
  private data = new Float64Array(4096);
  private count = 0;

  get length(): number {
    return this.count;
  }

  push(value: number): void {
    if (this.count === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.count++] = value;
  }

  /** A copy of the samples. */
  values(): Float64Array {
    return this.data.slice(0, this.count);
  }

  /** Nearest-rank percentiles, e.g. `percentiles([50, 99])`; NaN when there are no samples. */
  percentiles(ps: readonly number[]): number[] {
    const sorted = this.data.slice(0, this.count).sort();
    return ps.map((p) => {
      if (sorted.length === 0) return Number.NaN;
      const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
      return sorted[rank - 1] as number;
    });
  }
}
