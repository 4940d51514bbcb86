import {
  bookingFromSummary,
  Catalog,
  candidateShowings,
  checkBooking,
  parseScenario,
  type Scenario,
} from '@usher/booking';
import type { ParticipantView } from '@usher/protocol';
import type { Condition, Study } from '@usher/study';
import { seededAnswers } from './answers.ts';
import { PilotPage } from './page.ts';
import type { Seeded } from './seeded.ts';

/**
 * A simulated participant (`usher pilot`, and the tests that run a study end to end): goes
 * through a running study as the server sees a real one, over real sockets: the study link,
 * consent, each task on a page of their own (a host joining their room), its questionnaire,
 * the post-study questionnaire and the end page. With an agent that books, they say what the
 * task wants (from its briefing or its checklist), sometimes leaving a wish out and adding it
 * once the agent has begun (a correction), sometimes changing a choice the agent made, and answer
 * its questions; alone, they book by the task's wishes themselves, now and then getting one wrong.
 * Every choice is drawn from `rng`, so the same seed makes the same participant.
 */

export type Pace = 'real' | 'fast';

/** What a simulated participant did with the agent on one task. */
export type Behaviour = 'alone' | 'alone-erring' | 'plain' | 'self-correcting' | 'undoes' | 'beside-agent';

export interface PilotTaskResult {
  taskId: string;
  conditionId: string | null;
  behaviour: Behaviour;
  outcome: 'submitted' | 'done' | 'gave-up';
  /** What else they did where the condition allows it: `paused`, `took-over`, `rejected` (a proposed step). */
  also: string[];
}

export interface PilotParticipantResult {
  /** The study link's `participant=`: `pilot-<n>`. */
  externalId: string;
  participantId: string | null;
  room: string | null;
  status: string;
  tasks: PilotTaskResult[];
  completionCode: string | null;
  /** What went wrong on their side (an HTTP refusal, a frame the page could not read). */
  problems: string[];
}

export interface PilotParticipantOptions {
  /** The study server's base URL (open mode: the room's name is the participant's credential). */
  base: string;
  study: Study;
  /** 1-based; their link's `participant=pilot-<n>`. */
  number: number;
  rng: Seeded;
  pace: Pace;
  /** The condition of the participant's current task (the pilot reads its own registry). */
  conditionOf: (room: string) => Condition | null;
  now?: () => Date;
}

/** What a participant says after changing the agent's choice. */
const CHANGED = 'I changed that one myself, please go on from there.';
/** How long a simulated participant waits for the agent before giving up on the task. */
const PATIENCE_MS: Record<Pace, number> = { fast: 20_000, real: 180_000 };
/** The most steps through the flow (each task: start, end, questionnaire), so a confused server cannot loop a participant. */
const MAX_FLOW_STEPS = 200;

const plain = (markdown: string) =>
  markdown
    .replace(/[*_`#>]/g, '')
    .replace(/^\s*-\s+/gm, '')
    .replace(/\s+/g, ' ')
    .trim();

/** Runs one simulated participant through the study; resolves when they reach the end (or cannot go on). */
export async function runPilotParticipant(options: PilotParticipantOptions): Promise<PilotParticipantResult> {
  const { base, study, rng, pace } = options;
  const now = options.now ?? (() => new Date());
  const externalId = `pilot-${options.number}`;
  const result: PilotParticipantResult = {
    externalId,
    participantId: null,
    room: null,
    status: 'consent',
    tasks: [],
    completionCode: null,
    problems: [],
  };
  const link = await fetch(`${base}/s/${encodeURIComponent(study.id)}?participant=${externalId}`, {
    redirect: 'manual',
  });
  const location = link.headers.get('location');
  if (link.status !== 302 || !location) {
    result.problems.push(`the study link answered ${link.status}: ${(await link.text()).slice(0, 200)}`);
    return result;
  }
  const page = new URL(location, base);
  const room = page.searchParams.get('room') as string;
  result.room = room;
  result.participantId = page.searchParams.get('participant');
  const api = (path: string) => `${base}/api/participant${path}?room=${encodeURIComponent(room)}`;
  const view = async (): Promise<ParticipantView> => (await fetch(api(''))).json() as Promise<ParticipantView>;
  const post = async (path: string, body: object): Promise<boolean> => {
    const response = await fetch(api(path), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.ok) return true;
    result.problems.push(
      `POST ${path} ${JSON.stringify(body).slice(0, 80)}: ${response.status} ${(await response.text()).slice(0, 200)}`,
    );
    return false;
  };

  // The page joins the participant's room when it shows the briefing, before the task starts, as the study page does.
  let open: { page: PilotPage; taskId: string } | null = null;
  const pageFor = async (task: NonNullable<ParticipantView['task']>) => {
    if (open?.taskId !== task.id) {
      open?.page.close();
      const page = await PilotPage.open({ url: base, room, scenario: parseScenario(task.world), now });
      open = { page, taskId: task.id };
    }
    return open.page;
  };
  try {
    for (let step = 0; step < MAX_FLOW_STEPS; step++) {
      if (!(await flowStep())) break;
    }
  } finally {
    if (open) {
      result.problems.push(...(open as { page: PilotPage }).page.problems);
      (open as { page: PilotPage }).page.close();
    }
  }
  return result;

  /** One step through the flow; false once the participant is at the end (or cannot go on). */
  async function flowStep(): Promise<boolean> {
    const seen = await view();
    result.status = seen.status;
    if (seen.status === 'consent') {
      await think(pace, rng, 3000, 15000);
      if (!(await post('/step', { step: 'consent' }))) return false;
    } else if (seen.status === 'briefing') {
      if (seen.task) await pageFor(seen.task);
      await think(pace, rng, 3000, 12000);
      if (!(await post('/step', { step: 'start-task' }))) return false;
    } else if (seen.status === 'task') {
      const task = seen.task;
      const studyTask = study.tasks.find((t) => t.id === task?.id);
      if (!task || !studyTask) {
        result.problems.push(`the task view names no task of the study (${task?.id})`);
        return false;
      }
      const condition = options.conditionOf(room);
      const page = await pageFor(task);
      const also: string[] = [];
      const done = await doTask(page, {
        press: (control) => post('/control', { control }),
        also,
        world: parseScenario(task.world),
        briefing: task.briefing,
        checklist: task.checklist,
        success: studyTask.success,
        title: studyTask.title,
        chat: seen.page.chat,
        condition,
        rng: rng.fork(`task-${seen.taskIndex}`),
        pace,
      });
      result.tasks.push({ taskId: task.id, conditionId: condition?.id ?? null, ...done, also });
      result.problems.push(...page.problems.splice(0));
      page.close();
      open = null;
      if (!(await post('/step', { step: 'end-task', outcome: done.outcome, taskIndex: seen.taskIndex }))) return false;
    } else if (seen.status === 'task-questionnaire' || seen.status === 'post-study') {
      if (!seen.questionnaire) {
        result.problems.push(`no questionnaire shown in ${seen.status}`);
        return false;
      }
      await think(pace, rng, 10000, 40000);
      const answers = seededAnswers(seen.questionnaire, rng.fork(`answers-${seen.status}-${seen.taskIndex}`));
      if (!(await post('/questionnaire', { questionnaire: seen.questionnaire.kind, answers }))) return false;
    } else {
      result.completionCode = seen.completion?.code ?? null;
      return false;
    }
    return true;
  }
}

/** A pause as long as a person's (real pace) or none (fast: the next turn of the event loop). */
function think(pace: Pace, rng: Seeded, minMs: number, maxMs: number): Promise<void> {
  const ms = pace === 'real' ? minMs + rng.int(maxMs - minMs) : 0;
  return new Promise((resolve) => setTimeout(resolve, ms));
}

interface TaskRun {
  /** Presses one of the participant's controls (`POST /api/participant/control`); false when refused. */
  press: (control: 'pause' | 'resume' | 'take-over' | 'hand-back') => Promise<boolean>;
  also: string[];
  world: Scenario;
  briefing: string;
  checklist: string[];
  success: Study['tasks'][number]['success'];
  title: string;
  chat: boolean;
  condition: Condition | null;
  rng: Seeded;
  pace: Pace;
}

/** One task on the participant's page: with the agent or alone, by the condition. */
async function doTask(page: PilotPage, run: TaskRun): Promise<Pick<PilotTaskResult, 'behaviour' | 'outcome'>> {
  const agent = run.condition?.agent ?? 'none';
  if (agent === 'autopilot' && run.chat) return await withAgent(page, run);
  if (agent !== 'none' && run.chat) {
    // An assistant (or a wizard nobody plays in a pilot): they say what they want, then book.
    page.say(wishOf(run));
    await think(run.pace, run.rng, 2000, 6000);
    return { behaviour: 'beside-agent', outcome: await bookAlone(page, run, false) };
  }
  const erring = run.rng.chance(0.1);
  return { behaviour: erring ? 'alone-erring' : 'alone', outcome: await bookAlone(page, run, erring) };
}

/** The whole wish, as a participant would type it: the briefing in plain words, or the checklist. */
function wishOf(run: TaskRun): string {
  return run.checklist.length > 0 && run.rng.chance(0.5) ? run.checklist.join('; ') : plain(run.briefing);
}

/** The agent books: the participant asks, answers its questions, and says yes when it asks to book. */
async function withAgent(page: PilotPage, run: TaskRun): Promise<Pick<PilotTaskResult, 'behaviour' | 'outcome'>> {
  const { rng, pace } = run;
  const roll = rng.next();
  const behaviour: Behaviour =
    roll < 0.25 && run.checklist.length >= 2 ? 'self-correcting' : roll < 0.45 ? 'undoes' : 'plain';
  const patience = PATIENCE_MS[pace];
  const agentCalls = () => page.agentCalls.length;
  const submitted = () => page.protocol.engine.submitted() !== null;
  // The agent's questions the participant has answered (its greeting is answered by the wish).
  const answered = new Set<string>();
  const openQuestion = () => {
    const last = page.view().messageHistory.at(-1);
    // A question about a proposed step is answered by the decision on it.
    const open = last?.role === 'agent' && last.text.includes('?') && !answered.has(last.id);
    return open && !page.proposalPrompts.has(last.id) ? last : null;
  };
  const answerAll = () => {
    for (const m of page.view().messageHistory) if (m.role === 'agent') answered.add(m.id);
  };
  // Step approval: each proposed step approved as it comes, but one in twenty (once a task)
  // rejected with a wish from the checklist, which the agent takes as a correction.
  let rejected = false;
  page.onProposal = () => {
    if (!rejected && run.checklist.length > 0 && rng.chance(0.05)) {
      rejected = true;
      run.also.push('rejected');
      return { decision: 'reject', comment: `No, remember: ${rng.pick(run.checklist)}` };
    }
    return { decision: 'approve' };
  };
  await page.until(() => page.view().messageHistory.some((m) => m.role === 'agent'), 3000);
  answerAll();
  if (behaviour === 'self-correcting') {
    const left = rng.int(run.checklist.length);
    page.say(run.checklist.filter((_, i) => i !== left).join('; '));
    const correction = `Sorry, I forgot: ${run.checklist[left]}`;
    if (pace === 'fast') {
      // At once, as the agent's first action shows (before its next): the same seed, the same log.
      let said = false;
      await page.until(() => {
        if (!said && (agentCalls() > 0 || submitted() || openQuestion())) {
          said = true;
          answerAll();
          page.say(correction);
        }
        return said;
      }, patience);
    } else if (await page.until(() => agentCalls() > 0 || submitted() || openQuestion() !== null, patience)) {
      await think(pace, rng, 1500, 5000);
      answerAll();
      page.say(correction);
    }
  } else {
    page.say(wishOf(run));
  }
  if (behaviour === 'undoes') {
    // The participant changes the first choice the agent makes on a stage with another option.
    // Acting inside the check, as soon as the agent's choice shows (before its next step); once only.
    let acted = false;
    let changed = false;
    // They stop waiting for a choice to change once the agent asks something or has booked.
    await page.until(() => {
      if (acted || submitted() || openQuestion()) return true;
      const call = page.agentCalls.at(-1);
      const spec = page.view().uiSpec;
      if (call?.toolName !== 'select' || !spec || spec.stage !== call.stage) return false;
      if (!['movie', 'theater', 'date', 'time'].includes(spec.stage)) return false;
      const other = spec.visibleItems.find((item) => !item.isDisabled && item.id !== call.itemId);
      if (!other) return false;
      acted = true;
      if (!page.act('select', { itemId: other.id })) return true;
      changed = true;
      if (pace === 'fast') page.say(CHANGED);
      return true;
    }, patience);
    if (changed && pace === 'real') {
      await think(pace, rng, 1000, 4000);
      page.say(CHANGED);
    }
  }
  let answers = 0;
  let checked = false;
  for (;;) {
    const asked = await page.until(() => submitted() || openQuestion() !== null, patience);
    if (submitted()) return { behaviour, outcome: 'submitted' };
    const onConfirm = page.view().uiSpec?.stage === 'confirm';
    // Asked something else twice, they have said all they know: they give up.
    if (!asked || (!onConfirm && answers >= 2)) return { behaviour, outcome: 'gave-up' };
    answerAll();
    await think(pace, rng, 1500, 6000);
    answers += 1;
    // Asked to book, half of them look the booking over first: what breaks a wish, they say, once.
    if (onConfirm && !checked) {
      checked = true;
      const wrong = rng.chance(0.5) ? brokenWish(page, run) : null;
      if (wrong) {
        page.say(`No, that is not right: ${wrong}`);
        continue;
      }
    }
    // Asked to book, they agree; asked anything else, they say the task's wishes again, the other way.
    const controls = run.condition?.controls;
    if (onConfirm && controls?.takeOver && rng.chance(0.1)) {
      // They take the page over and book it themselves.
      if (await run.press('take-over')) {
        run.also.push('took-over');
        const booked = page.act('next', {}) && submitted();
        return { behaviour, outcome: booked ? 'submitted' : 'gave-up' };
      }
    } else if (onConfirm && controls?.pause && rng.chance(0.2)) {
      // They pause the agent to look the booking over, then let it go on.
      if (await run.press('pause')) {
        run.also.push('paused');
        await think(pace, rng, 3000, 10000);
        await run.press('resume');
      }
    }
    page.say(onConfirm ? 'yes' : answers === 1 ? plain(run.briefing) : run.checklist.join('; ') || plain(run.briefing));
    if (onConfirm) {
      const booked = await page.until(submitted, patience);
      return { behaviour, outcome: booked ? 'submitted' : 'gave-up' };
    }
  }
}

/** The participant books on their own, by the task's wishes (or, `erring`, with one of them wrong). */
async function bookAlone(page: PilotPage, run: TaskRun, erring: boolean): Promise<PilotTaskResult['outcome']> {
  const { rng, pace } = run;
  const story = { text: run.title, ...run.success };
  const fitting = candidateShowings(run.world, story);
  const wrong = run.world.showings.filter((s) => !fitting.some((f) => f.id === s.id));
  const showing = erring && wrong.length > 0 ? rng.pick(wrong) : fitting.length > 0 ? rng.pick(fitting) : null;
  if (!showing) return 'gave-up';
  const seatsWanted = run.success.hard.find((h) => h.kind === 'seatCount');
  const count = seatsWanted?.kind === 'seatCount' ? seatsWanted.count : 1;
  const mix = run.success.hard.find((h) => h.kind === 'ticketMix');
  const tickets: Array<[string, number]> =
    mix?.kind === 'ticketMix'
      ? (['adult', 'child', 'senior'] as const).flatMap((t) =>
          mix[t] ? [[t, mix[t] as number] as [string, number]] : [],
        )
      : [['adult', count]];
  // Where the aisles run, as the seat map shows them: seats across one are not side by side.
  const theater = run.world.theaters.find((t) => t.id === showing.theaterId);
  const aisles = run.world.seatMaps.find((m) => m.id === theater?.seatMapId)?.aisleAfter ?? [];
  for (let step = 0; step < 40; step++) {
    const spec = page.view().uiSpec;
    if (!spec) return page.protocol.engine.submitted() ? 'submitted' : 'gave-up';
    await think(pace, rng, 800, 3000);
    const ok = (() => {
      switch (spec.stage) {
        case 'movie':
          return page.act('select', { itemId: showing.movieId });
        case 'theater':
          return page.act('select', { itemId: showing.theaterId });
        case 'date':
          return page.act('select', { itemId: showing.date });
        case 'time':
          return page.act('select', { itemId: showing.id });
        case 'seat':
          return adjacentSeats(spec.visibleItems, count, aisles, rng).every((id) => page.act('select', { itemId: id }));
        case 'ticket':
          return tickets.every(([typeId, quantity]) => page.act('setQuantity', { typeId, quantity }));
        default:
          return true;
      }
    })();
    if (!ok || !page.act('next', {})) return 'gave-up';
  }
  return 'gave-up';
}

/** `count` free seats side by side in one row, no aisle between them (drawn from `rng` among those there are), else any free ones. */
function adjacentSeats(
  items: ReadonlyArray<{ id: string; isDisabled?: boolean; row?: unknown; number?: unknown; selected?: unknown }>,
  count: number,
  aisleAfter: readonly number[],
  rng: Seeded,
): string[] {
  const free = items.filter((i) => !i.isDisabled && typeof i.row === 'string' && typeof i.number === 'number');
  const rows = new Map<string, Array<{ id: string; n: number }>>();
  for (const seat of free) {
    const list = rows.get(seat.row as string) ?? [];
    list.push({ id: seat.id, n: seat.number as number });
    rows.set(seat.row as string, list);
  }
  const runs: string[][] = [];
  for (const seats of rows.values()) {
    seats.sort((a, b) => a.n - b.n);
    for (let i = 0; i + count <= seats.length; i++) {
      const window = seats.slice(i, i + count);
      const together = (s: { n: number }, k: number) => {
        const before = window[k - 1];
        return !before || (s.n === before.n + 1 && !aisleAfter.includes(before.n));
      };
      if (window.every(together)) {
        runs.push(window.map((s) => s.id));
      }
    }
  }
  return runs.length > 0 ? rng.pick(runs) : free.slice(0, count).map((s) => s.id);
}

/** The first wish of the task the booking on the confirm stage breaks, in the checker's words; null when it keeps them all. */
function brokenWish(page: PilotPage, run: TaskRun): string | null {
  const booking = bookingFromSummary(new Catalog(run.world), page.view().uiSpec?.state?.booking);
  if (!booking) return null;
  const check = checkBooking(run.world, booking, { text: run.title, ...run.success });
  const failed = check.hard.find((h) => !h.ok);
  return failed ? failed.detail : null;
}
