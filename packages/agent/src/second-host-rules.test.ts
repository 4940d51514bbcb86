import { startTestRelay } from '@usher/relay/testing';
import { describe, expect, it } from 'vitest';
import { loadSuite, runScenario, type ScenarioReport, type StartHost } from './suite/index.ts';
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

describe('the agent on the second host, one rule at a time', () => {
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
