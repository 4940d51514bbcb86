import type { Phase, RunView, StepView, Tone } from './state.ts';

/** The status line's first word for each phase, and its colour. */
const BADGES: Record<Phase, { word: string; tone: Tone }> = {
  idle: { word: 'IDLE', tone: 'dim' },
  starting: { word: 'RUNNING', tone: 'warn' },
  running: { word: 'RUNNING', tone: 'warn' },
  awaiting_ui: { word: 'AWAITING', tone: 'accent' },
  cancelling: { word: 'CANCELLING', tone: 'warn' },
  completed: { word: 'DONE', tone: 'ok' },
  error: { word: 'ERROR', tone: 'error' },
  cancelled: { word: 'CANCELLED', tone: 'dim' },
};

/**
 * The status line of the spec's run visibility: `RUNNING · tool=select · step=3 · ctx=100%`, or
 * `IDLE` before the first run. Fields not known yet show as `-`.
 */
export function statusLine(run: RunView | null): { badge: string; tone: Tone; fields: string } {
  if (!run) return { badge: BADGES.idle.word, tone: BADGES.idle.tone, fields: '' };
  const { word, tone } = BADGES[run.phase];
  const ctx = run.contextLeft === null ? '-' : `${Math.round(run.contextLeft)}%`;
  return { badge: word, tone, fields: `tool=${run.tool ?? '-'} · step=${run.step} · ctx=${ctx}` };
}

/** The whole status line as text. */
export function statusText(run: RunView | null): string {
  const { badge, fields } = statusLine(run);
  return fields ? `${badge} · ${fields}` : badge;
}

/** `12 ms`, `1.4 s`, `2 min 5 s`. */
/** `1 run`, `3 runs`. */
export function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** A complete step in one line: `step 3 · select · Orbital Drift · ok · 41 ms`. */
export function stepLine(step: StepView): string {
  const outcome = step.ok === undefined ? '…' : step.ok ? 'ok' : 'err';
  const parts = [`step ${step.number}`, step.label || step.tool || '-', outcome];
  if (step.durationMs !== undefined) parts.push(formatDuration(step.durationMs));
  return parts.join(' · ');
}
