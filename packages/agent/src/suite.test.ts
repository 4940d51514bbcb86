import type { Constraint } from '@usher/booking';
import { startTestRelay as startTestServer } from '@usher/relay/testing';
import { describe, expect, it } from 'vitest';
import {
  feasibleOptions,
  formatReport,
  loadSuite,
  minimumToolCalls,
  runScenario,
  type ScenarioReport,
  type StartHost,
  totalsOf,
  understandingOf,
} from './suite/index.ts';

/*
 * The scenario suite (packages/agent/suite/): the agent books each scenario in autopilot from the
 * story's text against the headless host, and the booking is judged against the story's hard
 * constraints. Optimality is reported (scripts/suite.ts), not asserted: the planner is greedy.
 */

const entries = loadSuite();

/** The test server closes itself when the test ends. */
const startHost: StartHost = async (world) => {
  const server = await startTestServer({ headlessHost: true, scenario: world });
  return {
    url: server.url,
    room: 'default',
    submitted: () => server.headlessHost?.submitted() ?? null,
    close: async () => {},
  };
};

const sorted = (list: readonly Constraint[]) => list.map((c) => JSON.stringify(c, Object.keys(c).sort())).sort();

describe('suite scenarios', () => {
  it('cover enough ground: 25+ scenarios, 4+ blocked, 3+ worlds', () => {
    expect(entries.length).toBeGreaterThanOrEqual(25);
    expect(entries.filter((e) => e.scenario.expect === 'blocked').length).toBeGreaterThanOrEqual(4);
    expect(new Set(entries.map((e) => e.scenario.world)).size).toBeGreaterThanOrEqual(3);
  });

  it.each(entries.map((e) => [e.file, e]))('%s: the story says what its text says', (_file, entry) => {
    const { model } = understandingOf(entry.world, entry.scenario.story.text);
    expect(sorted(model.hard)).toEqual(sorted(entry.scenario.story.hard));
    expect(sorted(model.soft)).toEqual(sorted(entry.scenario.story.soft));
  });

  it.each(entries.map((e) => [e.file, e]))('%s: the world can (or cannot) hold the story', (_file, entry) => {
    const options = feasibleOptions(entry.world, entry.scenario.story);
    if (entry.scenario.expect === 'book') expect(options.length).toBeGreaterThan(0);
    else expect(options).toEqual([]);
  });
});

describe('the agent on every scenario', () => {
  const reports: ScenarioReport[] = [];

  for (const entry of entries) {
    // A scenario with a known agent bug is expected to fail, so a fix shows up here.
    const test = entry.scenario.knownBug ? it.fails : it;
    test(`${entry.file}: ${entry.scenario.name}`, async () => {
      const report = await runScenario(entry, startHost);
      reports.push(report);
      expect(report.problems).toEqual([]);
      if (report.expect === 'book') {
        expect(report.booking).not.toBeNull();
        expect(report.failedHard).toEqual([]);
        expect(report.toolCalls).toBeGreaterThanOrEqual(report.minimumToolCalls ?? 0);
      } else {
        expect(report.status).toBe('blocked');
        expect(report.booking).toBeNull();
      }
      expect(report.passed).toBe(true);
    });
  }

  it('reports every scenario with its totals', () => {
    expect(reports.map((r) => r.file)).toEqual(entries.map((e) => e.file));
    const text = formatReport(reports);
    for (const r of reports) expect(text).toContain(r.file.replace(/\.json$/, ''));
    const totals = totalsOf(reports);
    const bugs = entries.filter((e) => e.scenario.knownBug).length;
    expect(totals.passed).toBe(entries.length - bugs);
    expect(totals.toolCalls).toBeGreaterThanOrEqual(totals.minimumToolCalls);
    expect(text).toContain('tool calls on bookings');
  });
});

describe('minimumToolCalls', () => {
  it('counts select + next per choice stage, seats, ticket types and the confirmation', () => {
    const seats = [{ id: 'A1', row: 'A', rowIndex: 0, number: 1, kind: 'standard' as const }];
    const tickets = [{ typeId: 'adult' as const, label: 'Adult', quantity: 1, unitPrice: 10 }];
    expect(minimumToolCalls({ seats, tickets })).toBe(8 + 1 + 1 + 1 + 1 + 1);
    expect(minimumToolCalls({ seats: [...seats, ...seats, ...seats], tickets: [...tickets, ...tickets] })).toBe(
      8 + 3 + 1 + 2 + 1 + 1,
    );
  });
});
