import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentActivity, Episode, MistakeRecord } from '@usher/agent';
import { defaultScenario } from '@usher/booking';
import { startTestRelay } from '@usher/relay/testing';
import type { Condition } from '@usher/study';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { AgentSpec } from './agent-spec.ts';
import { AgentThreads } from './agent-threads.ts';
import { type AgentFeedEvent, AgentSupervisor } from './supervisor.ts';

const AUTOPILOT = {
  id: 'autopilot',
  agent: 'autopilot',
  planner: 'rules',
  paceMs: 0,
  guard: 'none',
  pageTools: false,
  chat: true,
  mistakes: [],
} as unknown as Condition;

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

  it("holds a scripted mistake's action until the server's thread has noted it", async () => {
    const server = await startTestRelay({ headlessHost: true, scenario: defaultScenario() });
    const host = server.headlessHost;
    if (!host) throw new Error('no headless host');
    const threads = new AgentThreads(1, () => {});
    onTestFinished(() => threads.close());
    const spec: AgentSpec = {
      relayUrl: server.url,
      room: 'default',
      studyId: 'pilot-01',
      participantId: 'P01',
      mode: 'autopilot',
      paceMs: 0,
      pageTools: false,
      confirmInChat: false,
      proposeEachStep: false,
      handedBack: false,
      held: false,
      episodesDir: null,
      llm: null,
      mistakes: { mistakes: [{ id: 'later', kind: 'later-showing', stage: 'time' }], made: [] },
    };
    // The spec crosses to the thread as a structured clone: data only.
    expect(structuredClone(spec)).toEqual(spec);
    const episodes: Episode[] = [];
    const noted: MistakeRecord[] = [];
    let note: (() => void) | null = null;
    const handle = threads.run(spec, {
      episode: (episode) => episodes.push(episode),
      log: () => {},
      mistake: (record) =>
        new Promise<void>((resolve) => {
          noted.push(record);
          note = resolve;
        }),
    });
    // Ended by the thread's close when the test ends.
    handle.result.catch(() => {});
    onTestFinished(() => handle.stop());
    await until(() => host.view().messageHistory.length > 0, "the agent's greeting");
    host.say('Two adults for Orbital Drift tomorrow evening in IMAX, seats together');
    await until(() => noted.length === 1, 'the mistake');
    const mistake = noted[0] as MistakeRecord;
    expect(mistake).toMatchObject({ mistakeId: 'later', kind: 'later-showing', stage: 'time' });
    const chosen = (mistake.chosen as { showing: string }).showing;
    const selects = () =>
      episodes.filter((e) => e.kind === 'action' && JSON.stringify(e.payload).includes(chosen)).length;
    // Not acknowledged yet: however long the thread waits, the action that makes it is not sent.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(selects()).toBe(0);
    expect(host.view().uiSpec?.state.selected).not.toBe(chosen);
    (note as unknown as () => void)();
    await until(() => host.submitted() !== null, 'the booking');
    expect(selects()).toBeGreaterThan(0);
    expect(host.submitted()).toMatchObject({ showingId: chosen });
  });

  it("carries the participant's pause and the agent's activity across the thread", async () => {
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
    onTestFinished(() => supervisor.stopAll());
    const asking = { ...AUTOPILOT, guard: 'before-submit' } as Condition;
    supervisor.start('default', 'P01', asking);
    await until(() => host.view().messageHistory.length > 0, "the agent's greeting");
    expect(supervisor.hold('default')).toBe(true);
    expect(supervisor.isHeld('default')).toBe(true);
    host.say('Two adults for Orbital Drift tomorrow evening in IMAX, seats together');
    // Held: it reads the words but sends nothing (the page stays where it is).
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(host.view().uiSpec?.stage).toBe('movie');
    expect(supervisor.release('default')).toBe(true);
    // Released, it books up to its question; what it is doing comes back from the thread.
    const said = (text: string) => host.view().messageHistory.some((m) => m.text.includes(text));
    await until(() => said('Shall I book it?'), "the agent's question");
    await until(() => supervisor.activity('default') === 'asking', 'the agent asking before it submits');
    host.say('yes');
    await until(() => host.submitted() !== null, 'the booking');
    await until(() => supervisor.activity('default') === 'idle', 'the agent idle');
  });

  it('brings back every episode record in order, batched, and each change of activity once', async () => {
    const server = await startTestRelay({ headlessHost: true, scenario: defaultScenario() });
    const host = server.headlessHost;
    if (!host) throw new Error('no headless host');
    const dir = mkdtempSync(join(tmpdir(), 'usher-threads-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const threads = new AgentThreads(1, () => {});
    onTestFinished(() => threads.close());
    const spec: AgentSpec = {
      relayUrl: server.url,
      room: 'default',
      studyId: 'pilot-01',
      participantId: 'P01',
      mode: 'autopilot',
      paceMs: 20,
      pageTools: false,
      confirmInChat: true,
      proposeEachStep: false,
      handedBack: false,
      held: false,
      episodesDir: dir,
      llm: null,
      mistakes: null,
    };
    const heard: Array<{ kind: 'episode'; episode: Episode } | { kind: 'activity'; activity: AgentActivity }> = [];
    const handle = threads.run(spec, {
      episode: (episode) => heard.push({ kind: 'episode', episode }),
      activity: (activity) => heard.push({ kind: 'activity', activity }),
      log: () => {},
      mistake: () => {},
    });
    const said = (text: string) => host.view().messageHistory.some((m) => m.text.includes(text));
    await until(() => said('What would you like'), "the agent's greeting");
    host.say('Two adults for Orbital Drift tomorrow evening in IMAX, seats together');
    await until(() => handle.activity === 'asking', 'the agent asking before it submits');
    host.say('yes');
    await expect(handle.result).resolves.toMatchObject({ status: 'done' });

    // Every record the agent wrote to its episode log came back, in the same order.
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    const written = readFileSync(join(dir, files[0] as string), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Episode);
    const episodes = heard.flatMap((h) => (h.kind === 'episode' ? [h.episode] : []));
    expect(written.length).toBeGreaterThan(10);
    expect(episodes).toEqual(written);
    expect(episodes.map((e) => e.seq)).toEqual(written.map((_, i) => i));
    // Fewer messages than records: what one turn said came as one.
    const { messages, records } = threads.traffic();
    expect(records).toBeGreaterThanOrEqual(written.length + 1);
    expect(messages).toBeLessThan(records);
    // The activity came only when it changed: never the same twice in a row.
    const activity = heard.flatMap((h) => (h.kind === 'activity' ? [h.activity] : []));
    expect(activity).toContain('acting');
    expect(activity).toContain('asking');
    expect(activity.every((a, i) => i === 0 || activity[i - 1] !== a)).toBe(true);
  });

  it('refuses a count of threads that is not one', () => {
    expect(() => new AgentThreads(0, () => {})).toThrow(/not a count/);
  });
});
