import { defaultScenario } from '@usher/booking';
import { startTestRelay } from '@usher/relay/testing';
import type { Condition } from '@usher/study';
import { describe, expect, it, onTestFinished } from 'vitest';
import { AgentThreads } from './agent-threads.ts';
import { type AgentFeedEvent, AgentSupervisor } from './supervisor.ts';

const AUTOPILOT = {
  id: 'autopilot',
  agent: 'autopilot',
  paceMs: 0,
  confirmBeforeSubmit: false,
  pageTools: false,
  chat: true,
} as Condition;

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('agents in worker threads (AgentThreads)', () => {
  it("runs a participant's agent in a thread: it books, and the console hears its episodes", async () => {
    const server = await startTestRelay({ headlessHost: true, scenario: defaultScenario() });
    const host = server.headlessHost;
    if (!host) throw new Error('no headless host');
    const lines: string[] = [];
    const threads = new AgentThreads(1, (line) => lines.push(line));
    onTestFinished(() => threads.close());
    const supervisor = new AgentSupervisor({
      relayUrl: server.url,
      studyId: 'pilot-01',
      episodesDir: null,
      llm: null,
      log: (line) => lines.push(line),
      threads,
    });
    onTestFinished(() => supervisor.stopAll());
    const feed: AgentFeedEvent[] = [];
    supervisor.subscribe((event) => feed.push(event));

    supervisor.start('default', 'P01', AUTOPILOT);
    const said = (text: string) => host.view().messageHistory.some((m) => m.text.includes(text));
    await until(() => said('What would you like'), "the agent's greeting");
    expect(threads.load()).toEqual([1]);
    host.say('Two adults for Orbital Drift tomorrow evening in IMAX, seats together');
    await until(() => host.submitted() !== null, 'the booking');
    expect(host.submitted()).toMatchObject({ movieTitle: 'Orbital Drift', format: 'IMAX' });
    await until(() => !supervisor.isRunning('default'), 'the agent to finish');
    expect(threads.load()).toEqual([0]);
    expect(lines.some((l) => /agent in default done after \d+ tool calls/.test(l))).toBe(true);
    const episodes = feed.filter((e) => e.kind === 'episode');
    expect(episodes.length).toBeGreaterThan(5);
    expect(episodes.every((e) => e.room === 'default')).toBe(true);
  });

  it('stops an agent in a thread when its task ends', async () => {
    const server = await startTestRelay({ headlessHost: true, scenario: defaultScenario() });
    const host = server.headlessHost;
    if (!host) throw new Error('no headless host');
    const threads = new AgentThreads(1, () => {});
    onTestFinished(() => threads.close());
    const supervisor = new AgentSupervisor({
      relayUrl: server.url,
      studyId: 'pilot-01',
      episodesDir: null,
      llm: null,
      log: () => {},
      threads,
    });
    supervisor.start('default', 'P01', AUTOPILOT);
    await until(() => host.view().messageHistory.length > 0, "the agent's greeting");
    supervisor.stop('default');
    await until(() => threads.load()[0] === 0, 'the thread to let the agent go');
    expect(supervisor.isRunning('default')).toBe(false);
  });

  it('refuses a count of threads that is not one', () => {
    expect(() => new AgentThreads(0, () => {})).toThrow(/not a count/);
  });
});
