import type { Scenario } from '@usher/booking';
import type { ParticipantView, QuestionnaireView } from '@usher/protocol';
import { Samples } from '../lib/stats.ts';
import { sleep } from '../lib/waits.ts';
import { type AgentSign, PageHost, type SessionSeen } from './page-host.ts';

/** How long a person takes over each part of the study (ms, before jitter). */
export interface HumanPace {
  readConsent: number;
  readBriefing: number;
  /** From the agent's greeting to sending the wish. */
  typeWish: number;
  /** From the agent's question to the answer. */
  answerQuestion: number;
  /** From the booking made to ending the task. */
  endTask: number;
  perTaskQuestionnaire: number;
  postStudyQuestionnaire: number;
  /** Between two pings of the relay from each page. */
  pingEvery: number;
}

export const HUMAN_PACE: HumanPace = {
  readConsent: 4000,
  readBriefing: 4000,
  typeWish: 6000,
  answerQuestion: 3000,
  endTask: 2000,
  perTaskQuestionnaire: 8000,
  postStudyQuestionnaire: 15_000,
  pingEvery: 5000,
};

export const WISH = 'Two adults for Orbital Drift tomorrow evening in IMAX, seats together';
const GREETING = 'What would you like';
const QUESTION = 'Shall I book it?';
/** The longest a person waits for the agent (or the server) before the bench counts them as failed. */
const PATIENCE_MS = 180_000;

/** The figures every participant of a step adds to, while `recording` is on. */
export class Recorder {
  recording = false;
  /** Participant's message → the first frame of the agent the page shows (a chat line, a change, "working"). */
  readonly visible = new Samples();
  /** Participant's message → the agent's first chat line. */
  readonly chatLine = new Samples();
  /** Participant's message → the agent's first tool call (after the condition's pace). */
  readonly toolCall = new Samples();
  /** WebSocket ping → pong through the relay's loop. */
  readonly ping = new Samples();
  /** Each questionnaire the server took (participant id, kind, answers given), recorded or not: the check wants them all. */
  readonly questionnaires: Array<{ participantId: string; kind: string; answers: number }> = [];
}

/** One participant's outcome, for the checks at the end of the step. */
export interface Outcome {
  id: string;
  ok: boolean;
  failure?: string;
  sessions: Map<string, SessionSeen>;
  questionnaires: number;
}

/** A deterministic generator (mulberry32), so a run's jitter is the same each time. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function api<T>(base: string, path: string, body?: object): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method: body ? 'POST' : 'GET',
    ...(body && { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`${body ? 'POST' : 'GET'} ${path.split('?')[0]}: HTTP ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** Answers every item of a questionnaire as a person might (the attention check as asked). */
function answersTo(questionnaire: QuestionnaireView): Record<string, number | string | string[]> {
  const answers: Record<string, number | string | string[]> = {};
  for (const item of questionnaire.sections.flatMap((s) => s.items)) {
    switch (item.kind) {
      case 'likert':
        answers[item.id] = item.from + Math.floor(item.points / 2);
        break;
      case 'slider':
        answers[item.id] = 50;
        break;
      case 'single':
        answers[item.id] = (item.options.find((o) => o.value === 'Often') ?? item.options[0])?.value ?? '';
        break;
      case 'multiple':
        answers[item.id] = item.options.slice(0, Math.max(1, item.min ?? 1)).map((o) => o.value);
        break;
      default:
        if (item.required) answers[item.id] = 'Fine.';
    }
  }
  return answers;
}

/**
 * One participant at a person's pace: opens the study link, reads the consent, starts the task,
 * opens the page (a {@link PageHost}), waits for the agent's greeting, types the wish, answers the
 * agent's question with a yes once it asks, ends the task once the booking is made, and answers
 * the questionnaires. Times from each of their messages to the agent's signs go to `recorder`.
 */
export async function participant(
  base: string,
  studyId: string,
  id: string,
  world: Scenario,
  pace: HumanPace,
  random: () => number,
  recorder: Recorder,
): Promise<Outcome> {
  /** A person's time for something: the pace, ±40 %. */
  const human = (ms: number) => sleep(ms * (0.6 + 0.8 * random()));
  let sentAt: bigint | null = null;
  const firsts = new Set<AgentSign | 'visible'>();
  let measured = false;
  const onSign = (sign: AgentSign) => {
    if (sentAt === null) return;
    const us = Number(process.hrtime.bigint() - sentAt) / 1e3;
    const add = (what: AgentSign | 'visible', samples: Samples) => {
      if (firsts.has(what)) return;
      firsts.add(what);
      if (measured) samples.push(us);
    };
    add('visible', recorder.visible);
    if (sign === 'chat') add('chat', recorder.chatLine);
    if (sign === 'call') add('call', recorder.toolCall);
  };
  const page = new PageHost(world, onSign, (rttUs) => {
    if (recorder.recording) recorder.ping.push(rttUs);
  });
  const say = (text: string) => {
    sentAt = process.hrtime.bigint();
    firsts.clear();
    measured = recorder.recording;
    page.say(text);
  };
  let questionnaires = 0;
  let pinger: NodeJS.Timeout | null = null;
  try {
    const link = await fetch(`${base}/s/${studyId}?participant=${id}`, { redirect: 'manual' });
    await link.arrayBuffer();
    const room = new URL(link.headers.get('location') ?? '/', base).searchParams.get('room');
    if (!room) throw new Error(`the study link answered ${link.status} without a room`);
    const q = `?room=${encodeURIComponent(room)}`;
    let view = await api<ParticipantView>(base, `/api/participant${q}`);
    await human(pace.readConsent);
    view = await api<ParticipantView>(base, `/api/participant/step${q}`, { step: 'consent' });
    await human(pace.readBriefing);
    view = await api<ParticipantView>(base, `/api/participant/step${q}`, { step: 'start-task' });
    await page.open(base, room);
    pinger = setInterval(() => page.ping(), pace.pingEvery * (0.8 + 0.4 * random()));
    await page.until(() => page.chat.some((t) => t.includes(GREETING)), PATIENCE_MS, "the agent's greeting");
    await human(pace.typeWish);
    say(WISH);
    await page.until(() => page.chat.some((t) => t.includes(QUESTION)), PATIENCE_MS, "the agent's question");
    await human(pace.answerQuestion);
    say('yes');
    await page.until(() => page.protocol.engine.submitted() !== null, PATIENCE_MS, 'the booking');
    await human(pace.endTask);
    view = await api<ParticipantView>(base, `/api/participant/step${q}`, {
      step: 'end-task',
      outcome: 'submitted',
      taskIndex: view.taskIndex,
    });
    clearInterval(pinger);
    page.close();
    while (view.questionnaire) {
      const { kind } = view.questionnaire;
      await human(kind === 'per-task' ? pace.perTaskQuestionnaire : pace.postStudyQuestionnaire);
      const answers = answersTo(view.questionnaire);
      const participantId = view.participantId;
      view = await api<ParticipantView>(base, `/api/participant/questionnaire${q}`, { questionnaire: kind, answers });
      recorder.questionnaires.push({ participantId, kind, answers: Object.keys(answers).length });
      questionnaires += 1;
    }
    if (view.status !== 'done') throw new Error(`ended at ${view.status}, not done`);
    return { id, ok: true, sessions: page.sessions, questionnaires };
  } catch (err) {
    page.close();
    const lastLine = page.chat.at(-1)?.slice(0, 160);
    const failure = `${(err as Error).message}${lastLine ? ` (the agent's last line: "${lastLine}")` : ''}`;
    return { id, ok: false, failure, sessions: page.sessions, questionnaires };
  } finally {
    if (pinger) clearInterval(pinger);
  }
}
