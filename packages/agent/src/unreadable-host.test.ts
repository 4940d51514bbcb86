import { startTestRelay } from '@usher/relay/testing';
import { describe, expect, it } from 'vitest';
import { loadSuite, runScenario, type StartHost } from './suite/index.ts';
import { agreeableParticipant } from './suite/participant.ts';
import { fromWorld, SecondHost, type SecondHostOptions } from './testing/second-host/index.ts';

/*
 * What the agent cannot read on a host (a stage it does not recognise, a tool it cannot map) it
 * says once in its log and in the chat; it never stops in silence with no tool call.
 */

const entry = loadSuite().find((e) => e.file.startsWith('d01'));

async function run(options: Partial<SecondHostOptions>) {
  if (!entry) throw new Error('d01 is missing from the suite');
  const lines: string[] = [];
  let host: SecondHost | undefined;
  const startHost: StartHost = async (world) => {
    const server = await startTestRelay();
    const { catalog, toWorld } = fromWorld(world);
    host = await SecondHost.join({
      url: server.url,
      catalog,
      now: () => new Date(`${world.today}T10:00:00Z`),
      ...options,
    });
    const h = host;
    return {
      url: server.url,
      room: 'default',
      submitted: () => {
        const order = h.flow.orders.at(-1);
        return order ? toWorld(order) : null;
      },
      close: () => h.close(),
    };
  };
  const report = await runScenario(entry, startHost, {
    log: (line) => lines.push(line),
    participant: agreeableParticipant,
    timeoutMs: 8000,
  });
  return { report, lines, host };
}

describe('what the agent cannot read on a host', () => {
  it('a stage it does not recognise: it says so once, in its log and in the chat, and stops', async () => {
    const { report, lines, host } = await run({ stageNames: { movie: 'catalogue' } });
    expect(report.status).toBe('blocked');
    expect(report.message).toMatch(/^I cannot read this page: uiSpec\.stage "catalogue" is not a booking stage\./);
    expect(lines.filter((l) => l.startsWith("agent: cannot read the host's page"))).toHaveLength(1);
    expect(host?.agentSaid().filter((t) => t.startsWith('I cannot read this page'))).toEqual([report.message]);
  }, 30_000);

  it('a tool it cannot map: it says so once, naming the tools the page offers, and stops', async () => {
    const { report, lines, host } = await run({ toolNames: { select: 'pickOne' } });
    expect(report.status).toBe('blocked');
    expect(report.message).toMatch(
      /^I cannot act on this page: "select" is not in the current toolSchema\. The tools it offers are pickOne, next\./,
    );
    expect(lines.filter((l) => l.startsWith("agent: cannot act on the host's page"))).toHaveLength(1);
    expect(host?.agentSaid().filter((t) => t.startsWith('I cannot act on this page'))).toEqual([report.message]);
  }, 30_000);
});
