import type { IncomingMessage } from 'node:http';
import { FlowStepSchema } from '@usher/protocol';
import { AssignmentError } from '@usher/study';
import type { Hono } from 'hono';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { z } from 'zod';
import type { Capabilities, Capability } from '../access/capabilities.ts';
import { FlowError, type StudyMode } from '../study/study-mode.ts';

/**
 * The study's routes (study mode): the study link, and the participant's own API, which needs
 * the room's host credential the link hands out (or, in open mode, the room's name, which only
 * the link gives out).
 * - `GET /s/<study id>?PROLIFIC_PID=…` admits the participant and sends them to their page.
 * - `GET /api/participant` says where they are; `POST /api/participant/step` moves them on.
 */
export function mountStudyRoutes(
  app: Hono<{ Variables: { capability: Capability | null } }>,
  mode: StudyMode,
  capabilities: Capabilities | null,
  fail: (code: string, message: string, status: 400 | 401 | 403 | 404 | 409 | 429) => Response,
  /** How many new participants one address may admit a minute: each opening of the link makes one. */
  admissionsPerMinute: number,
  /** The address a request comes from (see `clientAddress` in access/client-address.ts). */
  clientAddress: (request: IncomingMessage) => string,
): void {
  const admissions = new RateLimiterMemory({ points: admissionsPerMinute, duration: 60 });

  app.get('/s/:studyId', async (c) => {
    if (c.req.param('studyId') !== mode.study.id) return fail('NOT_FOUND', 'no such study on this server', 404);
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const address = incoming ? clientAddress(incoming) : 'unknown';
    try {
      await admissions.consume(address);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      return fail('TOO_MANY_REQUESTS', 'too many new participants from this address; try again in a minute', 429);
    }
    let admitted: ReturnType<StudyMode['admit']>;
    try {
      admitted = mode.admit(new URL(c.req.url).searchParams);
    } catch (err) {
      if (err instanceof AssignmentError) return fail('INVALID_LINK', err.message, 400);
      throw err;
    }
    const { participant } = admitted;
    const page = new URLSearchParams({ room: participant.room, study: mode.study.id, participant: participant.id });
    if (capabilities) page.set('token', await capabilities.issue({ kind: 'host', room: participant.room }));
    return c.redirect(`/?${page}`, 302);
  });

  /** The participant a request speaks for: the room of its host credential (or, in open mode, `?room=`). */
  const whose = (capability: Capability | null, url: string) => {
    const room =
      capability?.kind === 'host'
        ? capability.room
        : capability?.kind === 'open'
          ? new URL(url).searchParams.get('room')
          : null;
    return room ? mode.byRoom(room) : null;
  };

  app.get('/api/participant', (c) => {
    const participant = whose(c.get('capability'), c.req.url);
    if (!participant) return fail('UNAUTHORIZED', "this needs a participant's link", 401);
    return c.json(mode.view(participant));
  });

  app.post('/api/participant/step', async (c) => {
    const participant = whose(c.get('capability'), c.req.url);
    if (!participant) return fail('UNAUTHORIZED', "this needs a participant's link", 401);
    let json: unknown;
    try {
      json = await c.req.json();
    } catch {
      json = undefined;
    }
    const body = FlowStepSchema.safeParse(json);
    if (!body.success) {
      return fail(
        'INVALID_MESSAGE',
        `body must be {"step": "consent" | "start-task" | "end-task", "outcome"?}: ${z.prettifyError(body.error)}`,
        400,
      );
    }
    try {
      return c.json(mode.step(participant, body.data));
    } catch (err) {
      if (err instanceof FlowError) return fail('OUT_OF_STEP', err.message, 409);
      throw err;
    }
  });
}
