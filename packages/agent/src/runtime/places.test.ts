import { defaultScenario } from '@usher/booking';
import { startTestRelay as startTestServer } from '@usher/relay/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import { GREETING } from '../planning/deterministic.ts';
import { FaultyHost } from '../testing/faulty-host.ts';
import { Agent } from './agent.ts';

/*
 * A place named before any theater stage shows its name ("at starlight", "at kingsway") is never
 * dropped: the agent books there when some film's theaters include it, and otherwise asks about
 * the place instead of booking a substitute.
 */

async function run(text: string) {
  const server = await startTestServer();
  const host = await FaultyHost.join({ url: server.url, scenario: defaultScenario() });
  onTestFinished(() => host.close());
  const agent = new Agent({
    url: server.url,
    room: 'default',
    study: 'pilot-01',
    participant: 'P12',
    mode: 'autopilot',
    returnWhenBlocked: true,
  });
  onTestFinished(() => agent.stop());
  const running = agent.run();
  await host.waitFor((m) => m.type === 'agent.message' && m.payload.text === GREETING);
  host.say(text);
  const result = await running;
  return { result, host };
}

describe('a place named in lower case before the theater stage', () => {
  it('books at the theater it names', async () => {
    const { result, host } = await run('two adults tomorrow evening at starlight, any film');
    expect(result.status).toBe('done');
    expect(host.protocol.engine.submitted()).toMatchObject({ theaterName: 'Starlight Multiplex' });
  });

  it('asks about a place no theater is called, and books nothing', async () => {
    const { result, host } = await run('two adults tomorrow evening at kingsway, any film');
    expect(result.status).toBe('blocked');
    expect(host.protocol.engine.submitted()).toBeNull();
    expect(result.message).toMatch(
      /^None of the theaters showing what you asked for is called “kingsway”: they are .+\. Which of them did you mean, or would any do\?$/,
    );
  });

  it('asks about a film or a theater when the name only opened the message, no film being named', async () => {
    const { result, host } = await run('barbie tomorrow evening for two adults');
    expect(result.status).toBe('blocked');
    expect(host.protocol.engine.submitted()).toBeNull();
    expect(result.message).toMatch(
      /^I could not find a film or a theater called “barbie”: the theaters showing what you asked for are .+\. Which film or theater did you mean, or would any do\?$/,
    );
  });
});
