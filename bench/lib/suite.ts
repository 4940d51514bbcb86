/** What a suite prints: tables of figures, each with optional notes (targets, caveats) under it. */
export interface Table {
  title: string;
  columns: string[];
  rows: string[][];
  notes?: string[];
}

export interface SuiteOptions {
  /** `BENCH_QUICK=1`: short phases, for a smoke run. */
  quick: boolean;
  /** The repository root, for starting servers from source. */
  root: string;
  /** Reports progress while a long suite runs. */
  progress(line: string): void;
}

/** One benchmark suite; `bench/run.ts` runs every registered suite in turn and prints its tables. */
export interface Suite {
  name: string;
  run(options: SuiteOptions): Promise<Table[]>;
}
