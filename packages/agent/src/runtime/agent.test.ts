import { checkBooking, defaultScenario, type Story } from '@usher/booking';
import type { StudyLogRecord, ToolDefinition } from '@usher/protocol';
import { readLog, startTestServer, TestClient } from '@usher/server/testing';
import { describe, expect, it } from 'vitest';
import { EpisodicLog } from '../memory/episodic.ts';
import { Agent, type AgentOptions } from './agent.ts';

async function studyRoom() {
  const scenario = defaultScenario();
  const server = await startTestServer({ headlessHost: true, scenario });
  const agent = (options: Partial<AgentOptions>) =>
    new Agent({
      url: server.url,
      room: 'default',
      study: 'pilot-01',
      participant: 'P07',
      mode: 'autopilot',
      returnWhenBlocked: true,
      ...options,
    });
  return { server, scenario, agent };
}

/** Every tool call in a study log names a tool the host offered at that moment, with a reason (spec §10). */
function toolCallsFollowTheSchema(log: StudyLogRecord[]): void {
  let offered: string[] = [];
  for (const record of log) {
    const toolSchema = (record.payload as { toolSchema?: ToolDefinition[] }).toolSchema;
    if (record.direction === 'out' && toolSchema) offered = toolSchema.map((t) => t.name);
    if (record.type === 'tool.call') {
      const { toolName, reason } = record.payload as { toolName: string; reason: string };
      expect(offered, `tool.call ${toolName} at event ${record.eventIndex}`).toContain(toolName);
      expect(reason.trim().length).toBeGreaterThan(5);
    }
  }
}

describe('Agent in autopilot', () => {
  it('books what the goal asks for over real sockets, every call in the schema and with a reason', async () => {
    const { server, scenario, agent } = await studyRoom();
    const goal = 'Two adult tickets for Orbital Drift tomorrow evening in IMAX, seats together';
    const episodes = new EpisodicLog({ dir: null });
    const result = await agent({ goal, episodes }).run();
    expect(result.status).toBe('done');

    const story: Story = {
      text: goal,
      hard: [
        { kind: 'title', is: ['Orbital Drift'] },
        { kind: 'date', dates: ['2026-11-22'] },
        { kind: 'startTime', after: '17:00' },
        { kind: 'format', is: ['IMAX'] },
        { kind: 'seatCount', count: 2 },
        { kind: 'adjacent' },
        { kind: 'ticketMix', adult: 2 },
      ],
      soft: [],
    };
    const booking = server.headlessHost?.submitted();
    expect(booking).not.toBeNull();
    const check = checkBooking(scenario, booking as never, story);
    expect(check.hard.filter((h) => !h.ok)).toEqual([]);

    const studyLog = readLog(`${server.logsDir}/${episodes.sessionId}.jsonl`);
    toolCallsFollowTheSchema(studyLog);
    const kinds = episodes.records.map((e) => e.kind);
    expect(kinds).toContain('plan');
    expect(kinds.filter((k) => k === 'action').length).toBe(kinds.filter((k) => k === 'outcome').length);
  });

  it('asks first when it knows nothing, then books from the participant’s answer', async () => {
    const { server, agent } = await studyRoom();
    const observer = await TestClient.join(server.url, 'observer');
    const running = agent({}).run();
    const question = await observer.waitFor(
      (f) =>
        f.type === 'state.updated' && JSON.stringify(f.payload.messageHistory).includes('What would you like to see'),
    );
    expect(question).toBeDefined();
    server.headlessHost?.say('Second Helpings on Monday evening, one adult ticket');
    const result = await running;
    expect(result.status).toBe('done');
    expect(server.headlessHost?.submitted()).toMatchObject({
      movieTitle: 'Second Helpings',
      date: '2026-11-23',
      tickets: [{ typeId: 'adult', quantity: 1 }],
    });
  });

  it('stops and says which wish cannot be met, rather than guessing', async () => {
    const { server, agent } = await studyRoom();
    const observer = await TestClient.join(server.url, 'observer');
    const result = await agent({ goal: 'Paper Lanterns in IMAX tomorrow, two adults' }).run();
    expect(result.status).toBe('blocked');
    expect(result.message).toMatch(/IMAX/);
    expect(server.headlessHost?.submitted()).toBeNull();
    const said = await observer.waitFor(
      (f) => f.type === 'state.updated' && JSON.stringify(f.payload.messageHistory).includes('relax'),
    );
    expect(said).toBeDefined();
  });
});
