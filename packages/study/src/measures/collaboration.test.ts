import { describe, expect, it } from 'vitest';
import { ConditionSchema } from '../study-file/schema.ts';
import { type ConditionFeatures, conditionFeatures, type MeasureRecord, measureTask } from './collaboration.ts';
import { summariseConditions } from './summary.ts';

/*
 * Each measure on a hand-written study log: the records a relay writes for one participant task,
 * at whole seconds from the task's start (T0), with the expected value worked out beside it.
 */

const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const AGENT: ConditionFeatures = {
  agent: true,
  chat: true,
  pause: true,
  takeOver: true,
  proposals: false,
  mistakes: false,
};
const ALONE: ConditionFeatures = {
  agent: false,
  chat: false,
  pause: false,
  takeOver: false,
  proposals: false,
  mistakes: false,
};

type Booking = Record<string, unknown>;
const movie = (id: string) => ({ id, title: id });
const theater = (id: string) => ({ id, name: id });
const showing = (id: string) => ({ id, time: '18:00', endTime: '20:00', format: 'IMAX' });

/** A study log written record by record; `s` is seconds after T0. */
function log() {
  const records: MeasureRecord[] = [];
  const at = (s: number) => T0 + s * 1000;
  const b = {
    records,
    task(s = 0) {
      records.push({ at: at(s), direction: 'internal', type: 'study.task', payload: { taskId: 't' } });
      return b;
    },
    state(s: number, source: 'agent' | 'user' | 'host', stage: string | null, booking: Booking, tool?: string) {
      const uiSpec = stage === null ? null : { stage, state: { booking } };
      const action = tool ? { toolName: tool, params: {} } : undefined;
      records.push({
        at: at(s),
        direction: 'out',
        type: 'state.updated',
        payload: { source, uiSpec, ...(action && { action }) },
      });
      return b;
    },
    /** The agent's tool call (from `peer`), the state it caused and its result. */
    agent(s: number, tool: string, stage: string | null, booking: Booking, peer = 'agent-2') {
      records.push({ at: at(s), direction: 'in', type: 'tool.call', peer, payload: { toolName: tool, params: {} } });
      b.state(s, 'agent', stage, booking, tool);
      records.push({ at: at(s), direction: 'out', type: 'tool.result', peer, payload: { ok: true, toolName: tool } });
      return b;
    },
    /** The participant's own action and the state it caused. */
    user(s: number, tool: string, stage: string | null, booking: Booking) {
      records.push({ at: at(s), direction: 'internal', type: 'participant.action', payload: { toolName: tool } });
      return b.state(s, 'user', stage, booking, tool);
    },
    say(s: number, text: string) {
      records.push({ at: at(s), direction: 'out', type: 'user.message', payload: { text } });
      return b;
    },
    agentSays(s: number, text: string, peer = 'agent-2') {
      records.push({ at: at(s), direction: 'in', type: 'agent.message', peer, payload: { text } });
      return b;
    },
    /** The agent's chat through the postMessage tool. */
    agentPosts(s: number, text: string) {
      records.push({
        at: at(s),
        direction: 'in',
        type: 'tool.call',
        peer: 'agent-2',
        payload: { toolName: 'postMessage', params: { text } },
      });
      return b;
    },
    /** A scripted mistake, as the supervisor records it just before the action that makes it. */
    mistake(s: number, payload: object) {
      return b.internal(s, 'agent.mistake', payload);
    },
    internal(s: number, type: string, payload: object) {
      records.push({ at: at(s), direction: 'internal', type, payload });
      return b;
    },
  };
  return b;
}

const M = (id: string) => ({ movie: movie(id) });

describe('collaboration measures, each on a hand-written log', () => {
  it('actions by side and their shares: 3 agent, 1 participant, 1 experimenter of 5', () => {
    const l = log()
      .task()
      .state(1, 'host', 'movie', {})
      .agent(2, 'select', 'movie', M('m1'))
      .agent(3, 'next', 'theater', M('m1'))
      .agentPosts(4, 'Lakeside has IMAX.') // chat, not an action
      .agent(5, 'select', 'theater', { ...M('m1'), theater: theater('t1') })
      .user(6, 'select', 'theater', { ...M('m1'), theater: theater('t2') })
      .agent(7, 'next', 'date', { ...M('m1'), theater: theater('t2') }, 'experimenter-1');
    const m = measureTask(l.records, AGENT);
    expect([m.agentActions, m.participantActions, m.experimenterActions, m.actions]).toEqual([3, 1, 1, 5]);
    // 3/5, 1/5, 1/5
    expect([m.agentShare, m.participantShare, m.experimenterShare]).toEqual([0.6, 0.2, 0.2]);
  });

  it('shares are empty when nobody acted', () => {
    const m = measureTask(log().task().state(1, 'host', 'movie', {}).records, AGENT);
    expect([m.actions, m.agentShare, m.participantShare, m.experimenterShare]).toEqual([0, null, null, null]);
  });

  it("time to the agent's first action: its first page call at 12.5 s, the chat before it not counted", () => {
    const l = log()
      .task(0)
      .agentSays(3, 'What would you like?')
      .say(9, 'Orbital Drift')
      .agent(12.5, 'select', 'movie', M('m1'));
    expect(measureTask(l.records, AGENT).timeToAgentFirstActionS).toBe(12.5);
    expect(measureTask(log().task().say(1, 'hi').records, AGENT).timeToAgentFirstActionS).toBeNull();
  });

  it('time to the booking: the last submission (a state without a stage right after confirm), 40 s', () => {
    const booked = { ...M('m1'), seats: ['A1'] };
    const l = log()
      .task(0)
      .state(1, 'host', 'movie', {})
      .agent(20, 'next', 'confirm', booked)
      .agent(25, 'next', null, {}) // first booking at 25 s
      .state(30, 'host', 'movie', {}) // the page starts again
      .user(35, 'next', 'confirm', booked)
      .user(40, 'next', null, {}); // the last one, judged, at 40 s
    const m = measureTask(l.records, AGENT);
    expect(m.timeToBookingS).toBe(40);
    expect(m.submittedBooking).toEqual(booked);
    expect(measureTask(log().task().state(1, 'host', 'confirm', booked).records, AGENT).timeToBookingS).toBeNull();
  });

  it('pauses and take-overs from participant.control; an experimenter take-over counted apart', () => {
    const l = log()
      .task()
      .agent(2, 'select', 'movie', M('m1'))
      .internal(4, 'participant.control', { control: 'pause', by: 'participant', agentActivity: 'acting' })
      .internal(6, 'participant.control', { control: 'resume', by: 'participant', agentActivity: 'idle' })
      .internal(8, 'participant.control', { control: 'pause', by: 'participant', agentActivity: 'idle' })
      .internal(9, 'participant.control', { control: 'take-over', by: 'participant', agentActivity: 'idle' })
      .internal(10, 'participant.control', { control: 'hand-back', by: 'participant', agentActivity: 'idle' })
      .internal(11, 'console.take-over', { by: 'exp', reason: 'stuck', agentPaused: true });
    const m = measureTask(l.records, AGENT);
    expect([m.pauses, m.takeOvers, m.experimenterTakeOvers]).toEqual([2, 1, 1]);
    // 2 pauses + 1 take-over; no correction, rejection or undone selection
    expect(m.interventions).toBe(3);
    expect(m.timeToFirstInterventionS).toBe(4);
  });

  it('rejected proposals from participant.proposal, empty without step approval', () => {
    const l = log()
      .task()
      .internal(2, 'agent.proposal', { proposalId: 'p1', tool: 'select', args: {}, reason: 'r' })
      .internal(3, 'participant.proposal', { proposalId: 'p1', decision: 'approve' })
      .internal(4, 'agent.proposal', { proposalId: 'p2', tool: 'next', args: {}, reason: 'r' })
      .internal(7, 'participant.proposal', { proposalId: 'p2', decision: 'reject', comment: 'not yet' });
    const m = measureTask(l.records, { ...AGENT, proposals: true });
    expect(m.rejectedProposals).toBe(1);
    expect(m.timeToFirstInterventionS).toBe(7);
    // A condition without the guard, and a log without proposals: empty, not 0.
    expect(measureTask(log().task().records, AGENT).rejectedProposals).toBeNull();
    // A log that holds proposals counts them whatever the study file says now.
    expect(measureTask(l.records, AGENT).rejectedProposals).toBe(1);
  });

  it('chat corrections: after the agent began acting, not a plain yes, not an answer to its question', () => {
    const l = log()
      .task()
      .say(1, 'Orbital Drift tomorrow') // before any agent action: the wish, not a correction
      .agent(3, 'select', 'movie', M('m1'))
      .say(4, 'actually make it IMAX') // 1: unprompted, after the agent acted
      .agentSays(5, 'Which theater, Lakeside or Northgate?')
      .say(6, 'Lakeside') // the answer to its question: not a correction
      .say(7, 'ok') // a plain yes: not a correction
      .agent(8, 'next', 'confirm', M('m1'))
      .agentSays(9, 'Shall I book it?') // asked on the confirm stage
      .say(10, 'no, two seats not three'); // 2: anything but a yes to the confirmation
    const m = measureTask(l.records, AGENT);
    expect(m.chatCorrections).toBe(2);
    expect(m.timeToFirstInterventionS).toBe(4);
    expect(measureTask(l.records, ALONE).chatCorrections).toBe(2); // the log has chat and agent actions
    expect(measureTask(log().task().user(1, 'select', 'movie', M('m1')).records, ALONE).chatCorrections).toBeNull();
  });

  it("undone agent selections: the participant's change of a part the agent had set (as overrides)", () => {
    const l = log()
      .task()
      .state(1, 'host', 'movie', {})
      .agent(2, 'select', 'movie', M('m1'))
      .user(3, 'select', 'movie', M('m2')) // 1: the agent's movie changed
      .user(4, 'select', 'movie', M('m3')) // the participant's own movie changed: not counted
      .agent(5, 'next', 'seat', M('m3'))
      .agent(6, 'select', 'seat', { ...M('m3'), seats: ['A1'] })
      .agent(7, 'select', 'seat', { ...M('m3'), seats: ['A1', 'A2'] })
      .user(9, 'select', 'seat', { ...M('m3'), seats: ['A2'] }) // 2: deselected one of the agent's seats
      .user(10, 'next', 'ticket', { ...M('m3'), seats: ['A2'] }); // a `next`: not counted
    const m = measureTask(l.records, AGENT);
    expect(m.undoneAgentSelections).toBe(2);
    expect(m.interventions).toBe(2);
    expect(m.timeToFirstInterventionS).toBe(3);
    expect(measureTask(l.records, ALONE).undoneAgentSelections).toBe(2); // the agent acted in this log
    expect(measureTask(log().task().user(1, 'select', 'movie', M('m1')).records, ALONE).undoneAgentSelections).toBe(
      null,
    );
  });

  it('interventions add up what applies, and are empty without an agent', () => {
    const l = log()
      .task()
      .agent(2, 'select', 'movie', M('m1'))
      .say(3, 'not that one') // correction
      .user(5, 'select', 'movie', M('m2')) // undone selection
      .internal(6, 'participant.control', { control: 'pause', by: 'participant', agentActivity: 'idle' });
    const m = measureTask(l.records, AGENT);
    // pause 1 + take-over 0 + correction 1 + undone 1; proposals do not apply
    expect([m.pauses, m.takeOvers, m.rejectedProposals, m.chatCorrections, m.undoneAgentSelections]).toEqual([
      1,
      0,
      null,
      1,
      1,
    ]);
    expect(m.interventions).toBe(3);
    const alone = measureTask(log().task().user(1, 'select', 'movie', M('m1')).records, ALONE);
    expect([alone.interventions, alone.timeToFirstInterventionS, alone.pauses, alone.takeOvers]).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it("a proposed step's prompt in the chat is the proposal's, not one of the agent's questions", () => {
    const l = log()
      .task()
      .agentSays(1, 'What would you like to see?') // 1
      .say(2, 'Paper Lanterns')
      .records.concat([
        {
          at: T0 + 3000,
          direction: 'in',
          type: 'agent.proposal',
          peer: 'agent-2',
          payload: { proposalId: 'p1', tool: 'select', args: {}, reason: 'r' },
        },
        {
          at: T0 + 3000,
          direction: 'in',
          type: 'agent.message',
          peer: 'agent-2',
          payload: { text: 'Next step: select it. Approve or reject?' },
        },
        {
          at: T0 + 4000,
          direction: 'out',
          type: 'participant.proposal',
          payload: { proposalId: 'p1', decision: 'approve' },
        },
        { at: T0 + 5000, direction: 'in', type: 'agent.message', peer: 'agent-2', payload: { text: 'Which day?' } }, // 2
      ]);
    const m = measureTask(l, { ...AGENT, proposals: true });
    expect([m.agentQuestions, m.rejectedProposals]).toEqual([2, 0]);
  });

  it("the agent's questions and each side's chat turns", () => {
    const l = log()
      .task()
      .say(1, 'Two tickets')
      .say(2, 'for Orbital Drift') // same turn
      .agentSays(3, 'Which day?') // question 1, agent turn 1
      .say(4, 'tomorrow') // participant turn 2
      .agentPosts(5, 'Found it. Evening or afternoon?') // question 2, agent turn 2
      .agentSays(6, 'I picked the evening.') // same turn, no question
      .say(7, 'great') // participant turn 3
      .agentSays(8, 'Done?', 'experimenter-1'); // agent's side turn 3; an experimenter's question is not the agent's
    const m = measureTask(l.records, AGENT);
    expect([m.agentQuestions, m.participantTurns, m.agentTurns]).toEqual([2, 3, 3]);
    const alone = measureTask(log().task().user(1, 'select', 'movie', M('m1')).records, ALONE);
    expect([alone.agentQuestions, alone.participantTurns, alone.agentTurns]).toEqual([null, null, null]);
  });

  it('scripted mistakes: caught when the first booking after one no longer holds it, missed when it does', () => {
    const at = (showingId: string, date: string, seats: string[] = []) => ({
      ...M('m1'),
      theater: theater('t1'),
      date,
      showing: showing(showingId),
      ...(seats.length > 0 && { seats }),
    });
    const l = log()
      .task()
      .state(1, 'host', 'movie', {})
      .mistake(2, {
        mistakeId: 'sunday',
        kind: 'next-day',
        stage: 'date',
        chosen: { date: '2026-11-23', label: 'Mon' },
      })
      .agent(2, 'select', 'date', { ...M('m1'), theater: theater('t1'), date: '2026-11-23' })
      .mistake(3, {
        mistakeId: 'late',
        kind: 'later-showing',
        stage: 'time',
        chosen: { showing: 'sh-late', label: '21:00' },
      })
      .agent(3, 'select', 'time', at('sh-late', '2026-11-23'))
      .user(4, 'select', 'time', at('sh-right', '2026-11-23')) // the participant puts the showing right
      .mistake(5, { mistakeId: 'apart', kind: 'seats-apart', stage: 'seat', chosen: { seats: ['A5', 'A1'] } })
      .agent(5, 'select', 'seat', at('sh-right', '2026-11-23', ['A1', 'A5']))
      .agent(6, 'next', 'confirm', at('sh-right', '2026-11-23', ['A1', 'A5']))
      .agent(7, 'next', null, {});
    const m = measureTask(l.records, { ...AGENT, mistakes: true });
    // The booking: sh-right (late caught), 23 Nov (sunday missed), exactly A1 and A5 (apart missed).
    expect([m.mistakesCaught, m.mistakesMissed]).toEqual([1, 2]);
    // The participant's change of the showing undid a scripted mistake: not overridden-correct.
    expect(m.overriddenCorrect).toBe(0);
    expect(measureTask(log().task().records, AGENT).mistakesCaught).toBeNull();
  });

  it("scripted mistakes with nothing booked after them: caught only by the participant's own change", () => {
    const day = (date: string) => ({ ...M('m1'), theater: theater('t1'), date });
    const mistake = { mistakeId: 'x', kind: 'next-day', stage: 'date', chosen: { date: '2026-11-23', label: 'Mon' } };
    const byParticipant = log()
      .task()
      .state(1, 'host', 'date', day('2026-11-22'))
      .mistake(2, mistake)
      .agent(2, 'select', 'date', day('2026-11-23'))
      .user(3, 'select', 'date', day('2026-11-22'));
    expect(measureTask(byParticipant.records, { ...AGENT, mistakes: true }).mistakesCaught).toBe(1);
    // The agent put it right itself (after a word in the chat): nobody caught it on the page.
    const byAgent = log()
      .task()
      .state(1, 'host', 'date', day('2026-11-22'))
      .mistake(2, mistake)
      .agent(2, 'select', 'date', day('2026-11-23'))
      .agent(4, 'select', 'date', day('2026-11-22'));
    expect(
      [measureTask(byAgent.records, { ...AGENT, mistakes: true })].map((x) => [x.mistakesCaught, x.mistakesMissed]),
    ).toEqual([[0, 1]]);
  });

  it("overridden-correct: the participant undid an agent's choice that was not a scripted mistake", () => {
    const l = log()
      .task()
      .state(1, 'host', 'movie', {})
      .agent(2, 'select', 'movie', M('m1')) // a right choice
      .mistake(3, { mistakeId: 'x1', kind: 'next-day', stage: 'date', chosen: { date: '2026-11-23', label: 'Mon' } })
      .agent(3, 'select', 'date', { ...M('m1'), date: '2026-11-23' })
      .user(4, 'select', 'movie', { ...M('m2'), date: '2026-11-23' }) // 1: undid the right movie
      .user(5, 'select', 'date', { ...M('m2'), date: '2026-11-22' }); // undid the mistake: not counted
    const m = measureTask(l.records, { ...AGENT, mistakes: true });
    expect(m.overriddenCorrect).toBe(1);
    expect(m.undoneAgentSelections).toBe(2);
    // No booking submitted: the participant's own change caught it.
    expect([m.mistakesCaught, m.mistakesMissed]).toEqual([1, 0]);
    expect(measureTask(l.records, AGENT).overriddenCorrect).toBe(1); // the log holds mistakes
  });

  it('a resumed task counts across its sessions, timed from its first start', () => {
    const l = log()
      .task(0)
      .agent(5, 'select', 'movie', M('m1'))
      .internal(6, 'relay.shutdown', { reason: 'stopped' })
      .internal(60, 'study.task', { taskId: 't', resumed: true })
      .agent(61, 'next', 'confirm', M('m1'))
      .agent(62, 'next', null, {});
    const m = measureTask(l.records, AGENT);
    expect([m.agentActions, m.timeToAgentFirstActionS, m.timeToBookingS]).toEqual([3, 5, 62]);
  });

  it("reads a condition's features from the study file: controls on by default with an agent, the guard, the task's mistakes", () => {
    const parse = (c: object) => ConditionSchema.parse({ id: 'c', ...c });
    expect(conditionFeatures(parse({ agent: 'autopilot' }), 't')).toEqual(AGENT);
    const scripted = parse({
      agent: 'autopilot',
      controls: { pause: false },
      guard: 'each-step',
      mistakes: [{ task: 't', stage: 'time', kind: 'later-showing' }],
    });
    expect(conditionFeatures(scripted, 't')).toEqual({ ...AGENT, pause: false, proposals: true, mistakes: true });
    expect(conditionFeatures(scripted, 'other').mistakes).toBe(false);
    // An experimenter plays a wizard: nobody's controls to press.
    expect(conditionFeatures(parse({ agent: 'wizard' }), 't')).toEqual({ ...AGENT, pause: false, takeOver: false });
    expect(conditionFeatures(parse({ agent: 'none', chat: false }), 't')).toEqual(ALONE);
  });
});

describe('the per-condition summary', () => {
  it('counts every task, averages and sums each measure where it applies', () => {
    const agentTask = (interventions: number | null, share: number, caught: number | null) => ({
      ...measureTask([], AGENT),
      interventions,
      agentShare: share,
      mistakesCaught: caught,
      mistakesMissed: caught === null ? null : 1,
    });
    const rows = [
      {
        participantId: 'p1',
        conditionId: 'auto',
        agent: 'autopilot',
        pilot: false,
        booked: true,
        success: true,
        timeOnTaskS: 60,
        measures: agentTask(0, 0.8, 1),
      },
      {
        participantId: 'p1',
        conditionId: 'auto',
        agent: 'autopilot',
        pilot: false,
        booked: true,
        success: false,
        timeOnTaskS: 90,
        measures: agentTask(3, 0.5, null),
      },
      {
        participantId: 'p2',
        conditionId: 'auto',
        agent: 'autopilot',
        pilot: false,
        booked: false,
        success: false,
        timeOnTaskS: null,
        measures: null,
      },
      {
        participantId: 'p3',
        conditionId: 'alone',
        agent: 'none',
        pilot: false,
        booked: true,
        success: true,
        timeOnTaskS: 30,
        measures: measureTask([], ALONE),
      },
    ];
    const [alone, auto] = summariseConditions(rows, ['alone', 'auto']);
    expect(auto).toMatchObject({
      conditionId: 'auto',
      participants: 2,
      tasksStarted: 2,
      booked: 2,
      successes: 1,
      successRate: 0.5, // 1 of 2 started
      meanTimeOnTaskS: 75, // (60 + 90) / 2
      meanAgentShare: 0.65, // (0.8 + 0.5) / 2
      meanInterventions: 1.5, // (0 + 3) / 2
      tasksWithIntervention: 1,
      mistakesCaught: 1,
      mistakesMissed: 1, // the task without mistakes left out
      overReliance: 0.5,
    });
    expect(alone).toMatchObject({ conditionId: 'alone', meanAgentShare: null, meanInterventions: null, pauses: null });
  });
});
