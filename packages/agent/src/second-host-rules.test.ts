import type { Story } from '@usher/booking';
import { startTestRelay } from '@usher/relay/testing';
import { describe, expect, it } from 'vitest';
import { loadSuite, runScenario, type ScenarioReport, type StartHost, type SuiteEntry } from './suite/index.ts';
import { agreeableParticipant } from './suite/participant.ts';
import { fromWorld, SecondHost, type SecondHostOptions } from './testing/second-host/index.ts';

/*
 * The rules the agent follows on hosts it was not built with (issue 23), each on the second host
 * made to leave one thing out, compared with Usher's host: a film step that lists every film and
 * shows no days or sessions (what a stage does not show is unknown, not none); cinemas without
 * their features, formats only on the showtimes; every update the site's own, never naming the
 * call behind it (no `action` tag, `source: "host"`).
 */

const entries = loadSuite();

function secondHost(options: Partial<SecondHostOptions>): StartHost {
  return async (world) => {
    const server = await startTestRelay();
    const { catalog, toWorld } = fromWorld(world);
    const now = () => new Date(`${world.today}T10:00:00Z`);
    const host = await SecondHost.join({ url: server.url, catalog, now, ...options });
    return {
      url: server.url,
      room: 'default',
      submitted: () => {
        const order = host.flow.orders.at(-1);
        return order ? toWorld(order) : null;
      },
      close: () => host.close(),
    };
  };
}

const usherHost: StartHost = async (world) => {
  const server = await startTestRelay({ headlessHost: true, scenario: world });
  return {
    url: server.url,
    room: 'default',
    submitted: () => server.headlessHost?.submitted() ?? null,
    close: async () => {},
  };
};

const outcome = (r: ScenarioReport) => ({
  status: r.status,
  showing: r.booking?.showingId ?? null,
  seats: r.booking?.seats.map((s) => s.id) ?? [],
});

const RULES: Array<[string, Partial<SecondHostOptions>, string[]]> = [
  [
    'a film step that lists every film, titles only, with no days or sessions',
    { everyFilm: true, stubFilms: true },
    ['d01', 'd02', 'd06'],
  ],
  ['cinemas without their features: formats only on the showtimes', { noFeatures: true }, ['d10', 'f07', 'f08']],
  ['every update the site’s own, with no action tag', { updatesFromHost: true }, ['d01', 'd03', 'd12']],
];

/**
 * Stories in the default world where only the showtimes tell which theater has IMAX (Riverside and
 * Starlight do, the nearer Grand does not) and the film listed first (Paper Lanterns) has none: the
 * agent must look where the host shows formats, and decline only once it has seen that none fits.
 */
function inDefaultWorld(text: string, hard: Story['hard'], soft: Story['soft'], why?: string): SuiteEntry {
  const base = entries.find((e) => e.file.startsWith('d01'));
  if (!base) throw new Error('d01 is missing from the suite');
  return {
    ...base,
    file: text,
    scenario: { ...base.scenario, story: { text, hard, soft }, expect: why ? 'blocked' : 'book', ...(why && { why }) },
  };
}
const MONDAY = '2026-11-23';
const FORMAT_STORIES = [
  // Starlight's 12:00 beats Riverside's 13:00, the nearer IMAX theater's earliest.
  inDefaultWorld(
    'The earliest IMAX showing of Orbital Drift on Monday, one adult',
    [
      { kind: 'format', is: ['IMAX'] },
      { kind: 'title', is: ['Orbital Drift'] },
      { kind: 'date', dates: [MONDAY] },
      { kind: 'seatCount', count: 1 },
    ],
    [{ kind: 'earliest' }],
  ),
  // No film named: films are compared, the first listed has no IMAX showing at all.
  inDefaultWorld(
    'The earliest IMAX showing on Monday, one adult',
    [
      { kind: 'format', is: ['IMAX'] },
      { kind: 'date', dates: [MONDAY] },
      { kind: 'seatCount', count: 1 },
    ],
    [{ kind: 'earliest' }],
  ),
  inDefaultWorld(
    'Paper Lanterns in IMAX on Monday, one adult',
    [
      { kind: 'format', is: ['IMAX'] },
      { kind: 'title', is: ['Paper Lanterns'] },
      { kind: 'date', dates: [MONDAY] },
      { kind: 'seatCount', count: 1 },
    ],
    [],
    'IMAX',
  ),
];

describe('the agent on the second host, one rule at a time', () => {
  // A theater that lists no features may still show IMAX: read as "none", every theater drops out
  // of the search for the earliest, and the nearer one's first IMAX showing is booked instead.
  for (const entry of FORMAT_STORIES) {
    it(`formats only on the showtimes, a hard IMAX wish: ${entry.file}, as on Usher's host`, async () => {
      const lines: string[] = [];
      const report = await runScenario(entry, secondHost({ noFeatures: true }), {
        log: (line) => lines.push(line),
        participant: agreeableParticipant,
      });
      const usher = await runScenario(entry, usherHost);
      const said = `${report.status} after ${report.toolCalls} tool calls: ${report.message}\n${lines.join('\n')}`;
      expect(report.toolCalls, said).toBeGreaterThan(0);
      expect(outcome(report), said).toEqual(outcome(usher));
      // Booked with every wish kept, as near the best as on Usher's host (for one film named, the
      // best); declined only after looking, naming the wish.
      expect(report.problems, said).toEqual([]);
      expect(report.best, said).toBe(usher.best);
      if (entry.scenario.story.hard.some((c) => c.kind === 'title' && c.is) && entry.scenario.expect === 'book')
        expect(report.best, said).toBe(true);
    }, 60_000);
  }

  for (const [rule, options, ids] of RULES) {
    for (const id of ids) {
      const entry = entries.find((e) => e.file.startsWith(id));
      if (!entry) continue;
      it(`${rule}: ${entry.file} books as on Usher's host`, async () => {
        const lines: string[] = [];
        const report = await runScenario(entry, secondHost(options), {
          log: (line) => lines.push(line),
          participant: agreeableParticipant,
        });
        const usher = await runScenario(entry, usherHost);
        const said = `${report.status} after ${report.toolCalls} tool calls: ${report.message}\n${lines.join('\n')}`;
        if (report.feasibleShowings > 0) expect(report.toolCalls, said).toBeGreaterThan(0);
        expect(outcome(report), said).toEqual(outcome(usher));
        expect(report.problems, said).toEqual([]);
      }, 60_000);
    }
  }
});
