import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestRelay as startTestServer } from '@usher/relay/testing';
import { describe, expect, it } from 'vitest';
import { loadSuite, runScenario, type ScenarioReport, type StartHost } from './suite/index.ts';
import { agreeableParticipant } from './suite/participant.ts';
import { fromWorld, SecondHost } from './testing/second-host/index.ts';

/*
 * The agent on a host it was not built with (testing/second-host/): another site's field names and
 * units, its own ids, no Usher extensions, seats selected several at a time, a fares step with its
 * own tool (`setFare {fareCode, count}`), over real sockets through Usher's relay. Every story of
 * the suite must come out as on Usher's host: every hard wish met, or a stop that names the wish,
 * and the same showing, seats and soft-wish verdict as the agent books there.
 */

const entries = loadSuite();

/** A relay with the second host in room `default`; the relay's study logs are kept to be read. */
/** A second host joined at `url`, as the suite runner sees a host: its last order in the world's terms. */
function running(url: string, host: SecondHost, toWorld: ReturnType<typeof fromWorld>['toWorld']) {
  return {
    url,
    room: 'default',
    submitted: () => {
      const order = host.flow.orders.at(-1);
      return order ? toWorld(order) : null;
    },
    close: () => host.close(),
  };
}

function secondHost(logs: string[], hosts: SecondHost[]): StartHost {
  return async (world) => {
    const server = await startTestServer();
    logs.push(server.logsDir);
    const { catalog, toWorld } = fromWorld(world);
    const host = await SecondHost.join({ url: server.url, catalog, now: () => new Date(`${world.today}T10:00:00Z`) });
    hosts.push(host);
    return running(server.url, host, toWorld);
  };
}

/** Usher's own headless host on the same world, to compare with. */
const usherHost: StartHost = async (world) => {
  const server = await startTestServer({ headlessHost: true, scenario: world });
  return {
    url: server.url,
    room: 'default',
    submitted: () => server.headlessHost?.submitted() ?? null,
    close: async () => {},
  };
};

describe('the agent on a second host', () => {
  it('serves every story of the suite, children’s and seniors’ tickets too', () => {
    expect(entries.length).toBeGreaterThanOrEqual(10);
    const kinds = entries.flatMap((e) => e.scenario.story.hard.flatMap((c) => (c.kind === 'ticketMix' ? [c] : [])));
    expect(kinds.some((c) => (c.child ?? 0) > 0)).toBe(true);
    expect(kinds.some((c) => (c.senior ?? 0) > 0)).toBe(true);
  });

  it('reads "tomorrow" again against the study day once the host shows one, when it had to use the machine clock', async () => {
    const entry = entries.find((e) => e.file.startsWith('d01'));
    if (!entry) throw new Error('d01 is missing from the suite');
    const lines: string[] = [];
    const server = await startTestServer();
    const { catalog, toWorld } = fromWorld(entry.world);
    const now = () => new Date(`${entry.world.today}T10:00:00Z`);
    const host = await SecondHost.join({ url: server.url, catalog, now, undatedChat: true });
    const startHost: StartHost = async () => running(server.url, host, toWorld);
    // A machine clock months away from the study's day.
    const clock = () => new Date('2027-03-01T09:00:00Z');
    const report = await runScenario(entry, startHost, {
      log: (line) => lines.push(line),
      now: clock,
      participant: agreeableParticipant,
    });
    expect(report.problems).toEqual([]);
    expect(report.booking?.showingId).toBe('sh-riverside-1122-1930');
    expect(lines).toEqual(
      expect.arrayContaining([
        "agent: the host has not said which day the study is on; reading dates against the machine's clock (2027-03-01)",
        `agent: read the participant's words again against the study's day (${entry.world.today})`,
        `agent: the host does not say which day the study is on (no meta.today); taking ${entry.world.today}, the first day on its date stage`,
      ]),
    );
  });

  it('says what it could not use of a garbled update, reads the whole state again, and books on', async () => {
    const entry = entries.find((e) => e.file.startsWith('d01'));
    if (!entry) throw new Error('d01 is missing from the suite');
    const lines: string[] = [];
    const server = await startTestServer();
    const { catalog, toWorld } = fromWorld(entry.world);
    const now = () => new Date(`${entry.world.today}T10:00:00Z`);
    const host = await SecondHost.join({ url: server.url, catalog, now, garbleUpdateAfterCall: 3 });
    const startHost: StartHost = async () => running(server.url, host, toWorld);
    const report = await runScenario(entry, startHost, {
      log: (line) => lines.push(line),
      participant: agreeableParticipant,
    });
    expect(report.problems).toEqual([]);
    expect(lines.filter((l) => /could not use a frame/.test(l))).toEqual([
      expect.stringContaining('could not use a frame from the relay (uiSpec.stage "payment" is not a booking stage)'),
    ]);
    expect(lines).toContain('agent: no usable state.updated after select; read the state with snapshot.get');
    // The snapshot at the start, and the one that replaced the garbled update.
    expect(host.snapshots).toBeGreaterThanOrEqual(2);
  });

  for (const entry of entries) {
    it(`${entry.file}: books as on Usher's host, and says what it could not use`, async () => {
      const lines: string[] = [];
      const logs: string[] = [];
      const hosts: SecondHost[] = [];
      // The simulated participant reads a pending booking in Usher's catalog, which this host's
      // records are not: it says yes, and the booking is judged here, against Usher's host's.
      const report = await runScenario(entry, secondHost(logs, hosts), {
        log: (line) => lines.push(line),
        participant: agreeableParticipant,
      });
      expect(report.problems).toEqual([]);
      expect(report.passed).toBe(true);
      // What it read by meaning (miles, star ratings, times without an end) leads to the same booking as on Usher's host.
      const usher = await runScenario(entry, usherHost);
      const chosen = (r: ScenarioReport) => [
        r.status,
        r.booking?.showingId,
        r.booking?.seats.map((seat) => seat.id),
        r.best,
      ];
      expect(chosen(report)).toEqual(chosen(usher));
      // No frame dropped in silence: nothing the agent could not use, and the relay refused none of the host's.
      expect(lines.filter((l) => /could not use/.test(l))).toEqual([]);
      // Its updates name no call, yet each is taken as the change the call made: no wait for one, no resync.
      expect(lines.filter((l) => /no usable state.updated/.test(l))).toEqual([]);
      expect(hosts[0]?.refused).toEqual([]);
      // The host says no study day: the agent says which it took, from the host's chat, never the machine's clock.
      expect(lines).toContain(
        `agent: the host does not say which day the study is on (no meta.today); taking ${entry.world.today}, the day of the host's chat timestamps`,
      );
      // The relay carried and logged the host's own frames.
      const [dir] = logs;
      const files = dir ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')) : [];
      const logged = files.map((f) => readFileSync(join(dir as string, f), 'utf8')).join('\n');
      expect(logged).toMatch(/"type":"snapshot.state".*"filmId":"F-\d{3}"/);
      if (entry.scenario.expect === 'book') {
        expect(logged).toMatch(/"sessionRef":"SH-\d{4}"/);
        // The tickets were chosen on the host's own fares step, with its own tool: each kind asked for, as many as asked.
        expect(logged).toMatch(/"toolName":"setFare","params":\{"fareCode":"\w+","count":[1-9]/);
        for (const c of entry.scenario.story.hard)
          if (c.kind === 'ticketMix')
            for (const kind of ['adult', 'child', 'senior'] as const)
              if (c[kind]) expect(logged).toContain(`"params":{"fareCode":"${kind}","count":${c[kind]}}`);
      }
    });
  }
});
