import { ChatMessageFields, SyncIdSchema } from '@usher/protocol/sync';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { type ExternalSystem, type RequestErrorCode, SyncRequestError } from '../external-system.ts';
import { bearerCheck } from './bearer.ts';

const CreateSessionBody = z.strictObject({});
const MessageBody = z.strictObject({ message: ChatMessageFields.message });

type ErrorCode = RequestErrorCode | 'INVALID_BODY' | 'NOT_FOUND' | 'INTERNAL' | 'UNAUTHORIZED' | 'FORBIDDEN';

const STATUS: Record<RequestErrorCode, ContentfulStatusCode> = {
  INVALID_MESSAGE: 400,
  UNKNOWN_SESSION: 404,
  SESSION_BUSY: 409,
  NO_AGENT: 503,
};

export interface AppDeps {
  system: ExternalSystem;
  /** The bearer token every `/api/*` request must present. */
  apiToken: string;
  version: string;
  startedAt: Date;
  warn: (line: string) => void;
}

/**
 * The reference orchestrator's HTTP API (README, "usher orchestrator"): sessions, messages and
 * health. Errors are `{ error: { code, message } }`; a refused request changes nothing.
 */
export function createApp({ system, apiToken, version, startedAt, warn }: AppDeps): Hono {
  const app = new Hono();
  const fail = (code: ErrorCode, message: string, status: ContentfulStatusCode) =>
    Response.json({ error: { code, message } }, { status });
  const authorized = bearerCheck(apiToken);

  // The API needs its bearer token (which no form post or cross-site page can send), and a page of
  // another site may not post to it even so.
  app.use('/api/*', async (c, next) => {
    if (!authorized(c.req.header('authorization'))) {
      return fail('UNAUTHORIZED', 'a valid "Authorization: Bearer <API token>" header is required', 401);
    }
    const origin = c.req.header('origin');
    if (c.req.method !== 'GET' && origin !== undefined && hostOf(origin) !== c.req.header('host')) {
      return fail('FORBIDDEN', `requests from pages of ${origin.slice(0, 100)} are not allowed`, 403);
    }
    await next();
  });

  app.use(
    '/api/*',
    bodyLimit({ maxSize: 64 * 1024, onError: () => fail('INVALID_BODY', 'request body exceeds 64 KiB', 413) }),
  );

  // Whether it is up, for anyone (a load balancer's probe); which agents are connected and how
  // much waits, only for holders of the API token.
  app.get('/healthz', (c) => {
    if (!authorized(c.req.header('authorization'))) return c.json({ ok: true, version });
    const sessions = system.sessions();
    return c.json({
      ok: true,
      version,
      uptimeSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
      agents: system.agents(),
      sessions: sessions.length,
      waiting: sessions.flatMap((s) => s.interactions).filter((i) => i.state === 'waiting').length,
    });
  });

  app.get('/api/sessions', (c) => c.json({ sessions: system.sessions() }));

  app.post('/api/sessions', async (c) => {
    const text = await c.req.text();
    const body = CreateSessionBody.safeParse(text.trim() === '' ? {} : parseJson(text));
    if (!body.success) return fail('INVALID_BODY', 'body must be empty or {}', 400);
    return c.json(system.createSession(), 201);
  });

  app.get('/api/sessions/:id', (c) => {
    const id = c.req.param('id');
    const session = SyncIdSchema.safeParse(id).success ? system.view(id) : undefined;
    return session ? c.json(session) : fail('UNKNOWN_SESSION', `no session ${id}`, 404);
  });

  app.post('/api/sessions/:id/messages', async (c) => {
    const body = MessageBody.safeParse(parseJson(await c.req.text()));
    if (!body.success) {
      return fail('INVALID_BODY', `body must be {"message": "…"}: ${z.prettifyError(body.error)}`, 400);
    }
    try {
      const interaction = system.sendMessage(c.req.param('id'), body.data.message);
      return c.json({ request_id: interaction.request_id, interaction }, 202);
    } catch (err) {
      if (err instanceof SyncRequestError) return fail(err.code, err.message, STATUS[err.code]);
      throw err;
    }
  });

  app.onError((err, c) => {
    warn(`http: ${c.req.method} ${c.req.path} failed: ${err.stack ?? err.message}`);
    return fail('INTERNAL', 'the orchestrator failed to handle this request', 500);
  });
  app.notFound((c) => fail('NOT_FOUND', `no route ${c.req.method} ${c.req.path}`, 404));
  return app;
}

/** A body that is not JSON becomes `undefined`, which then fails validation. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}
