import type { EventRecord } from './records.ts';
import type { StoredRun } from './store.ts';

/** What `session.history` sends: per run its input, then the events kept, in order. */
export interface Replay {
  runs: { runId: string; text: string; events: EventRecord[] }[];
  /** How many `agent.event`s the replay sends: one input per run plus its events. */
  eventCount: number;
  /** True when runs or events were left out. */
  truncated: boolean;
}

/**
 * Chooses what a history replay sends (ui-protocol-stdio §5.5): the newest `maxRuns` runs, and at
 * most `maxEvents` events in all, counting each run's input. The budget goes to the newest runs
 * first; the oldest run that does not fit whole keeps its input and its latest events.
 */
export function planReplay(runs: readonly StoredRun[], maxRuns: number, maxEvents: number): Replay {
  const newest = maxRuns === 0 ? [] : runs.slice(-maxRuns);
  let truncated = newest.length < runs.length;
  let budget = maxEvents;
  const picked: Replay['runs'] = [];
  for (let i = newest.length - 1; i >= 0; i--) {
    const run = newest[i] as StoredRun;
    if (budget < 1) {
      truncated = true;
      break;
    }
    const keep = Math.min(run.events.length, budget - 1);
    if (keep < run.events.length) truncated = true;
    picked.push({ runId: run.runId, text: run.text, events: run.events.slice(run.events.length - keep) });
    budget -= 1 + keep;
  }
  picked.reverse();
  return { runs: picked, eventCount: maxEvents - budget, truncated };
}
