import type { Capability } from '@usher/relay';
import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { ConsoleError, type StudyConsole } from '../console/study-console.ts';
import { SESSION_ID } from '../console/study-logs.ts';
import { FlowError } from '../study/study-mode.ts';
import { readJson } from './read-json.ts';

/** Live streams open at once: each holds a response and a listener, so strangers cannot pile them up (and experimenters are few). */
const MAX_STREAMS = 32;
/** The participant list is sent at most this often while it changes (ms). */
const LIST_EVERY_MS = 250;
/** A comment line this often keeps proxies from closing a quiet stream (ms). */
const KEEP_ALIVE_MS = 15_000;
/**
 * A live view whose reader has stopped taking its events (a laptop asleep, a stalled client) is
 * closed once this much text waits to be sent, rather than held in memory without bound; a browser's
 * EventSource reconnects and starts from a fresh participant list.
 */
export const MAX_UNSENT_CHARS = 4 * 1024 * 1024;

const Reason = z.strictObject({ reason: z.string().trim().min(1, 'say why').max(500) });
const NoBody = z.strictObject({}).optional();

type Fail = (code: string, message: string, status: 400 | 401 | 403 | 404 | 409 | 413 | 503) => Response;
type Variables = { capability: Capability | null };

/**
 * The experimenter's console API (`/api/console/…`), for experimenter credentials only (every
 * request in open mode): the study's participants and their rooms, live; a room's last state
 * and its agent's episodes; stepping in as the agent and handing back; ending or resetting a
 * participant's task; the study logs to replay. Documented in packages/study-host/README.md.
 */
export function mountConsoleRoutes(app: Hono<{ Variables: Variables }>, studyConsole: StudyConsole, fail: Fail): void {
  const study = studyConsole.mode.study;
  let streams = 0;

  app.use('/api/console/*', async (c, next) => {
    const capability = c.get('capability');
    if (capability?.kind === 'open' || capability?.kind === 'experimenter') return next();
    return capability === null
      ? fail('UNAUTHORIZED', "the console needs an experimenter's credential", 401)
      : fail('FORBIDDEN', "this credential does not open the console (an experimenter's does)", 403);
  });

  const who = (capability: Capability | null) =>
    capability?.kind === 'experimenter' && capability.name ? `experimenter ${capability.name}` : 'experimenter';

  app.get('/api/console/study', (c) =>
    c.json({
      study: {
        id: study.id,
        title: study.title,
        conditions: study.conditions.map((x) => ({ id: x.id, label: x.label ?? x.id, agent: x.agent })),
        tasks: study.tasks.map((t) => ({ id: t.id, title: t.title })),
      },
      participants: studyConsole.rows(),
    }),
  );

  app.get('/api/console/stream', (c) => {
    if (streams >= MAX_STREAMS) return fail('TOO_MANY_STREAMS', `at most ${MAX_STREAMS} live views at once`, 503);
    streams += 1;
    return streamSSE(c, async (stream) => {
      const aborted = new Promise<void>((resolve) => stream.onAbort(resolve));
      let timer: NodeJS.Timeout | null = null;
      let closed = false;
      // Text handed to the stream and not yet taken by the connection (a write resolves as it drains).
      let unsent = 0;
      const write = (text: string): Promise<unknown> | null => {
        if (closed) return null;
        if (unsent > MAX_UNSENT_CHARS) {
          closed = true;
          stream.abort();
          (c.env as { outgoing?: { destroy(): void } } | undefined)?.outgoing?.destroy();
          return null;
        }
        unsent += text.length;
        return stream.write(text).then(() => {
          unsent -= text.length;
        });
      };
      const send = (event: string, data: string) => write(`event: ${event}\ndata: ${data}\n\n`);
      // The list is a snapshot: while one is still being sent, the next waits for it and is made then.
      let listSending = false;
      let listDue = false;
      const sendList = () => {
        timer = null;
        if (listSending) {
          listDue = true;
          return;
        }
        const sent = send('participants', JSON.stringify(studyConsole.rows()));
        if (!sent) return;
        listSending = true;
        void sent.then(() => {
          listSending = false;
          if (listDue) {
            listDue = false;
            soon();
          }
        });
      };
      // Changes come in bursts (a booking moves every few hundred ms): the list goes out at most every LIST_EVERY_MS.
      const soon = () => {
        if (timer === null && !closed) timer = setTimeout(sendList, LIST_EVERY_MS);
      };
      const offMode = studyConsole.mode.onChange(soon);
      const offRooms = studyConsole.onRoomChange(soon);
      const offAgents = studyConsole.agents?.subscribe((event) => {
        if (event.kind !== 'episode') soon();
        void send('agent', JSON.stringify(event));
      });
      const keepAlive = setInterval(() => void write(': keep-alive\n\n'), KEEP_ALIVE_MS);
      sendList();
      await aborted;
      closed = true;
      streams -= 1;
      if (timer) clearTimeout(timer);
      clearInterval(keepAlive);
      offMode();
      offRooms();
      offAgents?.();
    });
  });

  /** A room of this study, with its participant; a 404 for anything else. */
  const roomOf = (room: string) => {
    const participant = studyConsole.byRoom(room);
    return participant ? { room, participant } : null;
  };

  app.get('/api/console/rooms/:room', (c) => {
    const found = roomOf(c.req.param('room'));
    if (!found) return fail('NOT_FOUND', 'no participant of this study has that room', 404);
    const row = studyConsole.rows().find((r) => r.room === found.room);
    const taskId = found.participant.plan.tasks[found.participant.taskIndex]?.taskId;
    const task = study.tasks.find((t) => t.id === taskId);
    return c.json({
      participant: row,
      state: studyConsole.lastState(found.room),
      episodes: studyConsole.agents?.episodes(found.room) ?? [],
      // The experimenter sees the whole world, the story's hidden constraints included.
      world: task?.world ?? null,
      checklist: task?.checklist ?? [],
    });
  });

  const act = async (
    c: { req: { param(name: string): string; json(): Promise<unknown> }; get(key: 'capability'): Capability | null },
    schema: z.ZodType,
    run: (
      body: { reason?: string },
      participant: NonNullable<ReturnType<StudyConsole['byRoom']>>,
      by: string,
    ) => object,
  ) => {
    const found = roomOf(c.req.param('room'));
    if (!found) return fail('NOT_FOUND', 'no participant of this study has that room', 404);
    const body = schema.safeParse(await readJson(c.req));
    if (!body.success) return fail('INVALID_MESSAGE', `body: ${z.prettifyError(body.error)}`, 400);
    try {
      return Response.json(run(body.data as { reason?: string }, found.participant, who(c.get('capability'))));
    } catch (err) {
      if (err instanceof ConsoleError || err instanceof FlowError) return fail('OUT_OF_STEP', err.message, 409);
      throw err;
    }
  };

  app.post('/api/console/rooms/:room/take-over', (c) =>
    act(c, Reason, (body, participant, by) => studyConsole.takeOver(participant, by, body.reason ?? '')),
  );
  app.post('/api/console/rooms/:room/hand-back', (c) =>
    act(c, NoBody, (_body, participant, by) => studyConsole.handBack(participant, by)),
  );
  app.post('/api/console/rooms/:room/end', (c) =>
    act(c, Reason, (body, participant, by) =>
      studyConsole.mode.endByExperimenter(participant, `${body.reason ?? ''} (${by})`),
    ),
  );
  app.post('/api/console/rooms/:room/reset', (c) =>
    act(c, Reason, (body, participant, by) =>
      studyConsole.mode.resetByExperimenter(participant, `${body.reason ?? ''} (${by})`),
    ),
  );

  app.get('/api/console/sessions', (c) => c.json({ sessions: studyConsole.sessions() }));

  // The collaboration measures per condition, as the export's `conditions` table would hold them now.
  app.get('/api/console/summary', (c) => c.json({ conditions: studyConsole.conditionSummary() }));

  app.get('/api/console/sessions/:session', (c) => {
    const sessionId = c.req.param('session');
    const summary = SESSION_ID.test(sessionId) ? studyConsole.logs.find(sessionId) : null;
    if (!summary) return fail('NOT_FOUND', `no study log of this study is called ${sessionId}`, 404);
    let log: string;
    try {
      log = studyConsole.logs.read(sessionId);
    } catch (err) {
      return fail('TOO_LARGE', (err as Error).message, 413);
    }
    const task = study.tasks.find((t) => t.id === summary.taskId);
    return c.json({ session: summary, log, world: task?.world ?? null });
  });
}
