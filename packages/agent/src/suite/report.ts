import { isShowingLevel } from './optimum.ts';
import type { ScenarioReport } from './run.ts';

export interface SuiteTotals {
  scenarios: number;
  passed: number;
  /** `book` scenarios whose booking meets every hard constraint, of all `book` scenarios. */
  satisfied: number;
  book: number;
  /** `blocked` scenarios correctly blocked, of all `blocked` ones. */
  blockedOk: number;
  blocked: number;
  /** `book` scenarios whose booked showing reaches the best showing-level soft score, of those with such preferences. */
  best: number;
  withPreferences: number;
  /** Tool calls over the `book` scenarios that booked, and the minimum for those bookings. */
  toolCalls: number;
  minimumToolCalls: number;
  /** Tool calls spent in `blocked` scenarios (the minimum there is 0). */
  blockedToolCalls: number;
  /** Scenarios passed without a correction, and with at most two. */
  firstTry: number;
  withinTwo: number;
  /** Bookings submitted that break a hard constraint of the story: must be 0. */
  hardViolations: number;
  /** Corrections the simulated participant made over the whole suite. */
  corrections: number;
}

export function totalsOf(reports: readonly ScenarioReport[]): SuiteTotals {
  const book = reports.filter((r) => r.expect === 'book');
  const blocked = reports.filter((r) => r.expect === 'blocked');
  const booked = book.filter((r) => r.booking && r.minimumToolCalls !== null);
  return {
    scenarios: reports.length,
    passed: reports.filter((r) => r.passed).length,
    satisfied: book.filter((r) => r.passed).length,
    book: book.length,
    blockedOk: blocked.filter((r) => r.passed).length,
    blocked: blocked.length,
    best: book.filter((r) => r.best === true).length,
    withPreferences: book.filter((r) => r.story.soft.some(isShowingLevel)).length,
    toolCalls: booked.reduce((sum, r) => sum + r.toolCalls, 0),
    minimumToolCalls: booked.reduce((sum, r) => sum + (r.minimumToolCalls ?? 0), 0),
    blockedToolCalls: blocked.reduce((sum, r) => sum + r.toolCalls, 0),
    firstTry: reports.filter((r) => r.passed && r.corrections === 0).length,
    withinTwo: reports.filter((r) => r.passed && r.corrections <= 2).length,
    hardViolations: reports.filter((r) => r.booking && r.failedHard.length > 0).length,
    corrections: reports.reduce((sum, r) => sum + r.corrections, 0),
  };
}

const pct = (n: number, of: number) => (of === 0 ? '–' : `${n}/${of} (${Math.round((100 * n) / of)} %)`);

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function resultOf(r: ScenarioReport): string {
  const what = r.booking
    ? `booked ${r.booking.showingId} ${r.booking.seats.map((s) => s.id).join(',')}`
    : `${r.status}, nothing booked`;
  return r.knownBug ? `${what} [known bug]` : what;
}

/** The suite's report as plain text: one row per scenario, then the totals and every problem. */
export function formatReport(reports: readonly ScenarioReport[]): string {
  const rows = [
    ['scenario', 'expect', 'result', 'hard ok', 'best by soft', 'calls / min', 'corrections'],
    ...reports.map((r) => [
      r.file.replace(/\.json$/, ''),
      r.expect,
      resultOf(r),
      r.expect === 'book' ? (r.passed ? 'yes' : 'NO') : r.passed ? 'blocked ok' : 'NO',
      r.best === null ? '–' : `${r.best ? 'yes' : 'no'} (${r.softScore}/${r.bestSoftScore})`,
      `${r.toolCalls} / ${r.minimumToolCalls ?? '–'}`,
      String(r.corrections),
    ]),
  ];
  const t = totalsOf(reports);
  const lines = [
    table(rows),
    '',
    `scenarios: ${t.scenarios}, passed ${pct(t.passed, t.scenarios)}; first try ${pct(t.firstTry, t.scenarios)}, within two corrections ${pct(t.withinTwo, t.scenarios)} (${t.corrections} corrections in all)`,
    `hard violations in submitted bookings: ${t.hardViolations}`,
    `book: hard constraints satisfied ${pct(t.satisfied, t.book)}; best by soft ${pct(t.best, t.withPreferences)} (of those with showing-level preferences)`,
    `blocked: correctly blocked ${pct(t.blockedOk, t.blocked)} (${t.blockedToolCalls} tool calls spent)`,
    `tool calls on bookings: ${t.toolCalls} vs minimum ${t.minimumToolCalls}${t.minimumToolCalls ? ` (${(t.toolCalls / t.minimumToolCalls).toFixed(2)}×)` : ''}`,
  ];
  const problems = reports.filter((r) => r.problems.length);
  if (problems.length) {
    lines.push('', 'problems:');
    for (const r of problems)
      lines.push(`- ${r.file}${r.knownBug ? ` (known bug: ${r.knownBug})` : ''}: ${r.problems.join(' | ')}`);
  }
  return lines.join('\n');
}
