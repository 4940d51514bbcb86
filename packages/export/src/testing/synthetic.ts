import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Actor, BookingEngine, type SubmittedBooking } from '@usher/booking';
import { type Study, StudyRegistry } from '@usher/study';

/**
 * A synthetic study run, for the export's tests and bench: a registry made with the real
 * registry (admissions, plans, progress) and one study log per participant task written as the
 * relay writes them, whose bookings come from the real booking engine. It returns what each
 * participant task truly did, for the export to be checked against.
 */

export interface SyntheticTruth {
  participantId: string;
  taskId: string;
  conditionId: string;
  /** What the engine submitted, or null (gave up, unfinished, not started). */
  booking: SubmittedBooking | null;
  overrides: number;
  participantActions: number;
  agentActions: number;
  outcome: 'booked' | 'gave-up' | 'unfinished' | 'not-started';
}

export interface SyntheticOptions {
  study: Study;
  participants: number;
  logsDir: string;
  registryPath: string;
  /** Seeds the choices, so a run is the same every time. */
  seed?: number;
  start?: Date;
}

/** A small deterministic generator (mulberry32): the same seed, the same study. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Line {
  direction: 'in' | 'out' | 'internal';
  type: string;
  payload: unknown;
  id?: string;
  replyTo?: string;
  peer?: string;
}

/** One participant task played on the engine, as the lines of its study log (without the envelope). */
function playTask(
  engine: BookingEngine,
  agent: boolean,
  seats: number,
  rand: () => number,
  fate: SyntheticTruth['outcome'],
): { lines: Line[]; truth: Omit<SyntheticTruth, 'participantId' | 'taskId' | 'conditionId' | 'outcome'> } {
  const lines: Line[] = [];
  let calls = 0;
  const truth = { booking: null as SubmittedBooking | null, overrides: 0, participantActions: 0, agentActions: 0 };
  const state = (source: 'user' | 'agent' | 'host', action?: { toolName: string; params: object }) =>
    lines.push({
      direction: 'out',
      type: 'state.updated',
      payload: { source, ...engine.view(), ...(action && { action }) },
    });
  const act = (actor: Actor, toolName: string, params: Record<string, unknown>) => {
    if (actor === 'agent') {
      const id = `a${++calls}`;
      lines.push({
        direction: 'in',
        type: 'tool.call',
        id,
        peer: 'agent-2',
        payload: { toolName, params, reason: 'synthetic' },
      });
      engine.apply(toolName, params, 'agent');
      state('agent', { toolName, params });
      lines.push({
        direction: 'out',
        type: 'tool.result',
        replyTo: id,
        peer: 'agent-2',
        payload: { ok: true, toolName },
      });
      truth.agentActions += 1;
    } else {
      lines.push({ direction: 'internal', type: 'participant.action', peer: 'host-1', payload: { toolName, params } });
      engine.apply(toolName, params, 'participant');
      state('user', { toolName, params });
      truth.participantActions += 1;
    }
  };
  const chat = (actor: Actor, text: string) => {
    if (actor === 'agent') {
      lines.push({ direction: 'in', type: 'agent.message', id: `a${++calls}`, peer: 'agent-2', payload: { text } });
      engine.addMessage('agent', text);
      state('agent');
    } else {
      lines.push({ direction: 'out', type: 'user.message', payload: { text, stage: engine.view().uiSpec?.stage } });
      engine.addMessage('participant', text);
      state('user');
    }
  };
  lines.push({ direction: 'internal', type: 'relay.join', peer: 'host-1', payload: { role: 'host', replaced: false } });
  state('host');
  const doer: Actor = agent ? 'agent' : 'participant';
  if (agent) {
    lines.push({
      direction: 'internal',
      type: 'relay.join',
      peer: 'agent-2',
      payload: { role: 'agent', replaced: false },
    });
    chat('participant', 'two tickets please');
    chat('agent', 'Understood.');
  }
  const free = () => (engine.view().uiSpec?.visibleItems ?? []).filter((item) => !item.isDisabled);
  const pick = () => free()[Math.floor(rand() * Math.min(3, free().length))]?.id as string;
  const steps = fate === 'gave-up' || fate === 'unfinished' ? 2 + Math.floor(rand() * 3) : 99;
  for (let step = 0; step < steps; step++) {
    const spec = engine.view().uiSpec;
    if (!spec || spec.stage === 'confirm') break;
    if (spec.stage === 'seat') {
      const chosen = free().slice(0, seats);
      for (const seat of chosen) act(doer, 'select', { itemId: seat.id });
      // With the agent, a participant sometimes swaps one of its seats: one override (the
      // deselect), then their own seat, which overrides nothing.
      const spare = free().find((s) => !chosen.some((c) => c.id === s.id));
      if (agent && chosen[0] && spare && rand() < 0.3) {
        act('participant', 'select', { itemId: chosen[0].id });
        act('participant', 'select', { itemId: spare.id });
        truth.overrides += 1;
      }
    } else if (spec.stage === 'ticket') {
      const children = rand() < 0.3 ? 1 : 0;
      if (children) act(doer, 'setQuantity', { typeId: 'child', quantity: children });
      act(doer, 'setQuantity', { typeId: 'adult', quantity: seats - children });
    } else {
      const first = pick();
      act(doer, 'select', { itemId: first });
      // With the agent, a participant sometimes picks another option on the same stage: an override.
      const other = free().find((item) => item.id !== first);
      if (agent && other && rand() < 0.2) {
        act('participant', 'select', { itemId: other.id });
        truth.overrides += 1;
      }
    }
    act(doer, 'next', {});
  }
  if (fate === 'booked') {
    if (agent) {
      chat('agent', 'Shall I book it?');
      chat('participant', 'yes');
    }
    act(doer, 'next', {});
    truth.booking = engine.submitted();
    if (agent) chat('agent', 'Your booking is confirmed.');
  }
  if (agent) lines.push({ direction: 'internal', type: 'relay.left', peer: 'agent-2', payload: { role: 'agent' } });
  return { lines, truth };
}

/** Different plays kept per task, condition and outcome: participants share them, so a large study is quick to write. */
const POOL = 24;

type Played = ReturnType<typeof playTask> & { payloads: string[] };

/** Writes a synthetic study run (see the module's comment); returns the truth of every participant task. */
export function writeSyntheticStudy(options: SyntheticOptions): SyntheticTruth[] {
  const { study, logsDir } = options;
  const rand = random(options.seed ?? 1);
  let clock = (options.start ?? new Date('2026-11-21T09:00:00Z')).getTime();
  const tick = (ms: number) => {
    clock += ms;
    return new Date(clock);
  };
  mkdirSync(logsDir, { recursive: true });
  const registry = new StudyRegistry(options.registryPath);
  const truths: SyntheticTruth[] = [];
  const pool = new Map<string, Played[]>();
  const play = (task: Study['tasks'][number], agent: boolean, fate: SyntheticTruth['outcome']): Played => {
    const key = `${task.id} ${agent} ${fate}`;
    const plays = pool.get(key) ?? [];
    pool.set(key, plays);
    const n = Math.floor(rand() * POOL);
    let played = plays[n];
    if (!played) {
      const wanted = task.success.hard.find((h) => h.kind === 'seatCount');
      const seats = wanted?.kind === 'seatCount' ? wanted.count : 2;
      const engine = new BookingEngine(task.world, { now: () => new Date(clock) });
      const done = playTask(engine, agent, seats, rand, fate);
      played = { ...done, payloads: done.lines.map((line) => JSON.stringify(line.payload)) };
      plays[n] = played;
    }
    return played;
  };
  let sessions = 0;
  try {
    for (let i = 0; i < options.participants; i++) {
      const { participant } = registry.admit(study, {
        recruitment: { participant: `S${i}` },
        now: tick(1000),
        random: rand,
      });
      const dropsOut = rand() < 0.05;
      participant.plan.tasks.forEach((planned, taskIndex) => {
        const task = study.tasks.find((t) => t.id === planned.taskId);
        const condition = study.conditions.find((c) => c.id === planned.conditionId);
        if (!task || !condition) throw new Error(`the plan names an unknown task or condition`);
        const base = { participantId: participant.id, taskId: task.id, conditionId: condition.id };
        if (dropsOut && taskIndex > 0) {
          const nothing = { booking: null, overrides: 0, participantActions: 0, agentActions: 0 };
          truths.push({ ...base, ...nothing, outcome: 'not-started' });
          return;
        }
        const fate: SyntheticTruth['outcome'] = dropsOut ? 'unfinished' : rand() < 0.1 ? 'gave-up' : 'booked';
        const played = play(task, condition.agent !== 'none', fate);
        truths.push({ ...base, ...played.truth, outcome: fate });
        const sessionId = `s-20261121-${String(++sessions).padStart(5, '0')}`;
        const head = (eventIndex: number, line: Omit<Line, 'payload'>) =>
          JSON.stringify({
            sessionId,
            eventIndex,
            timestamp: tick(400 + Math.floor(rand() * 1500)).toISOString(),
            ...line,
          }).slice(0, -1);
        const taskPayload = {
          studyId: study.id,
          participantId: participant.id,
          conditionId: condition.id,
          taskId: task.id,
        };
        const out = [
          `${head(0, { direction: 'internal', type: 'study.task' })},"payload":${JSON.stringify(taskPayload)}}\n`,
        ];
        played.lines.forEach(({ payload: _payload, ...line }, i) => {
          out.push(`${head(i + 1, line)},"payload":${played.payloads[i]}}\n`);
        });
        if (fate !== 'unfinished') {
          const reason = `task ${task.id} ended: ${fate === 'booked' ? 'submitted' : 'gave-up'}`;
          out.push(
            `${head(out.length, { direction: 'internal', type: 'study.task-ended' })},"payload":${JSON.stringify({ reason })}}\n`,
          );
        }
        writeFileSync(join(logsDir, `${sessionId}.jsonl`), out.join(''));
      });
      const last = participant.plan.tasks.length - 1;
      const end = dropsOut ? { status: 'task' as const, taskIndex: 0 } : { status: 'done' as const, taskIndex: last };
      registry.progress(participant.id, end, tick(10));
    }
  } finally {
    registry.close();
  }
  return truths;
}
