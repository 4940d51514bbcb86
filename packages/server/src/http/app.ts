import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Scenario } from '@usher/booking';
import { type ErrorCode, ProtocolError, RoomIdSchema } from '@usher/protocol';
import {
  type Capabilities,
  type Capability,
  type ClientView,
  CredentialError,
  clientView,
  crossSiteRefusal,
  framingHeaders,
  type HeadlessHost,
  loopbackHostRefusal,
  originRefusal,
  presentedToken,
  type Relay,
} from '@usher/relay';
import { readJson, type StudyHost } from '@usher/study-host';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';

/** Built assets whose names carry a hash of their content: a new build gives them new names. */
const HASHED_ASSET = /^\/assets\/.+-[\w-]{8,}\.\w+$/;

/**
 * How long a browser may keep what the web host serves: a hashed asset for a year without asking
 * again (its name changes with its content); a page (HTML) is asked for again each time, so a new
 * build shows at once. Every answer that has compressed copies varies by Accept-Encoding.
 */
function cachePolicy(path: string, c: Context): void {
  c.header('Cache-Control', HASHED_ASSET.test(c.req.path) ? 'public, max-age=31536000, immutable' : 'no-cache');
  if (/\.(br|gz)$/.test(path) || existsSync(`${path}.br`) || existsSync(`${path}.gz`))
    c.header('Vary', 'Accept-Encoding');
}

/** The participant API's answer when the relay could not log (so did not forward) what the participant did. */
const NOT_RECORDED =
  'the study log could not be written, so this was not recorded and the agent did not see it; try again once the disk has room';
const SayBody = z.strictObject({ text: z.string().trim().min(1).max(4000) });
const ActBody = z.strictObject({
  toolName: z.string().min(1),
  params: z.record(z.string(), z.unknown()).default({}),
});

const STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  INVALID_MESSAGE: 400,
  INVALID_PARAMS: 400,
  UNKNOWN_TOOL: 400,
  SESSION_NOT_ACTIVE: 409,
  NO_ACTIVE_SPEC: 409,
  TOOL_EXECUTION_FAILED: 409,
};

export interface AppDeps {
  relay: Relay;
  /** The headless host, once it has joined (it connects after the server listens). */
  headlessHost: () => HeadlessHost | null;
  version: string;
  startedAt: Date;
  warn: (line: string) => void;
  /** The world the hosts of this server show: the web host fetches it from `/api/scenario`. */
  scenario: Scenario | null;
  /** Folder of the web host's built assets, served at `/`; null serves no page. */
  webRoot: string | null;
  /** Serve the built pages' source maps (`usher serve --source-maps`); without it a `.map` is not found. */
  sourceMaps?: boolean;
  /** Checks credentials; null in open mode (every request may do everything). */
  capabilities: Capabilities | null;
  /** Origins besides the server's own whose pages may change state (`*` for any). */
  allowOrigins: string[];
  /** Sites besides the server's own that may show study pages in a frame (access/framing.ts). */
  frameAncestors?: string[];
  /** The study the server runs (`--study`), with its console, or null: it mounts their routes. */
  studyHost: Pick<StudyHost, 'mountRoutes'> | null;
  /** Open mode on loopback: answer only requests naming a loopback host. */
  loopbackOnly: boolean;
  /** Where a request comes from, for per-address limits and secure cookies (the socket's peer, or what a trusted proxy says). */
  client?: ClientView;
}

type Variables = { capability: Capability | null };

/**
 * The server's HTTP surface: health, room status, and the participant API that plays a
 * participant on the headless host (see packages/server/README.md, "Participant API").
 * Errors are `{ error: { code, message } }` with the protocol's codes.
 */
export function createApp({
  relay,
  headlessHost: getHeadlessHost,
  version,
  startedAt,
  warn,
  scenario,
  webRoot,
  sourceMaps = false,
  capabilities,
  allowOrigins,
  frameAncestors = [],
  studyHost,
  loopbackOnly,
  client = clientView(null),
}: AppDeps): Hono<{ Variables: Variables }> {
  const app = new Hono<{ Variables: Variables }>();
  const fail = (code: ErrorCode, message: string, status = STATUS[code]) =>
    Response.json({ error: { code, message } }, { status });
  const denied = (status: 401 | 403, message: string) =>
    Response.json({ error: { code: status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN', message } }, { status });

  // A study link carries its credential in the address: no page of ours hands it on as a Referer.
  // No other site frames a page of ours but those named (access/framing.ts).
  const studyFraming = framingHeaders(false, frameAncestors);
  const consoleFraming = framingHeaders(true, []);
  app.use('*', async (c, next) => {
    await next();
    c.header('Referrer-Policy', 'no-referrer');
    c.header('X-Content-Type-Options', 'nosniff');
    const isConsole = c.req.path === '/console' || c.req.path === '/console.html';
    for (const [name, value] of Object.entries(isConsole ? consoleFraming : studyFraming)) c.header(name, value);
  });

  // A HEAD request's answer has no body, and nobody reads one: a body a route made for it (a live
  // stream, an export) is let go at once, or it would hold its slot (and its files) forever.
  app.use('*', async (c, next) => {
    await next();
    if (c.req.method !== 'HEAD' || !c.res.body) return;
    const { status, headers } = c.res;
    void c.res.body.cancel().catch(() => {});
    c.res = new Response(null, { status, headers });
  });

  if (loopbackOnly) {
    app.use('*', async (c, next) => {
      const refusal = loopbackHostRefusal(c.req.header('host')) ?? crossSiteRefusal(c.req.raw.headers, allowOrigins);
      if (refusal) return Response.json({ error: { code: 'FORBIDDEN', message: refusal } }, { status: 403 });
      await next();
    });
  }

  // No request body anywhere in the API may be larger than this, read or not.
  app.use(
    '/api/*',
    bodyLimit({ maxSize: 64 * 1024, onError: () => fail('INVALID_MESSAGE', 'request body exceeds 64 KiB', 413) }),
  );

  // The API's JSON answers are compressed for a browser that accepts it (a task's view carries
  // its world, tens of KB); live streams and downloads are left as they are.
  app.use('/api/*', compress({ contentTypeFilter: /^application\/json\b/ }));

  // Who is asking: a credential from `Authorization: Bearer` or `?token=`; every request in open mode.
  // A page of another site may not change anything, nor post a form (only JSON bodies are read).
  app.use('/api/*', async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const origin = originRefusal({ origin: c.req.header('origin'), host: c.req.header('host') }, allowOrigins);
      if (origin) return denied(403, origin);
      if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('application/json')) {
        return fail('INVALID_MESSAGE', 'the body must be JSON (Content-Type: application/json)', 415);
      }
    }
    if (!capabilities) {
      c.set('capability', { kind: 'open' });
      return next();
    }
    const token = presentedToken({ authorization: c.req.header('authorization') }, c.req.url);
    if (!token) {
      c.set('capability', null);
      return next();
    }
    try {
      c.set('capability', await capabilities.verify(token));
    } catch (err) {
      if (err instanceof CredentialError) return denied(401, err.message);
      throw err;
    }
    return next();
  });
  const experimenter = (capability: Capability | null) =>
    capability?.kind === 'open' || capability?.kind === 'experimenter';
  const needed = (capability: Capability | null, what: string) =>
    capability === null
      ? denied(401, `${what} needs a credential`)
      : denied(403, `this credential does not allow ${what}`);

  app.get('/healthz', (c) =>
    c.json({
      ok: true,
      version,
      uptimeSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
      rooms: relay.status().length,
    }),
  );

  app.get('/api/rooms', (c) => {
    const capability = c.get('capability');
    if (!experimenter(capability)) return needed(capability, 'listing rooms (an experimenter credential)');
    return c.json({ rooms: relay.status() });
  });

  const participant = new Hono<{ Variables: Variables & { host: HeadlessHost } }>();
  participant.use(
    '*',
    bodyLimit({ maxSize: 64 * 1024, onError: () => fail('INVALID_MESSAGE', 'request body exceeds 64 KiB', 413) }),
  );
  participant.use('*', async (c, next) => {
    const room = RoomIdSchema.safeParse(c.req.param('room'));
    const headlessHost = getHeadlessHost();
    if (!room.success) return fail('INVALID_MESSAGE', `"${c.req.param('room')}" is not a room name`);
    const capability = c.get('capability');
    const own = capability?.kind === 'host' && capability.room === room.data;
    if (!own && !experimenter(capability))
      return needed(capability, `acting in room "${room.data}" (its participant's link)`);
    if (!headlessHost || headlessHost.room !== room.data) {
      return fail(
        'SESSION_NOT_ACTIVE',
        `no headless host serves room "${room.data}"` +
          (headlessHost ? ` (it serves "${headlessHost.room}")` : '; start the server with --headless-host'),
        404,
      );
    }
    c.set('host', headlessHost);
    await next();
  });

  participant.get('/view', (c) => {
    const host = c.get('host');
    return c.json({ ...host.view(), submitted: host.submitted() });
  });

  participant.post('/message', async (c) => {
    const body = SayBody.safeParse(await readJson(c.req.raw));
    if (!body.success) return fail('INVALID_MESSAGE', `body must be {"text": "…"}: ${z.prettifyError(body.error)}`);
    const host = c.get('host');
    let recorded: boolean;
    try {
      recorded = await host.recorded(() => host.say(body.data.text));
    } catch (err) {
      if (err instanceof ProtocolError) return fail(err.code, err.message);
      throw err;
    }
    if (!recorded) return fail('TOOL_EXECUTION_FAILED', NOT_RECORDED, 503);
    return c.json({ ok: true }, 202);
  });

  participant.post('/action', async (c) => {
    const body = ActBody.safeParse(await readJson(c.req.raw));
    if (!body.success) {
      return fail('INVALID_MESSAGE', `body must be {"toolName": "…", "params": {…}}: ${z.prettifyError(body.error)}`);
    }
    const host = c.get('host');
    let recorded: boolean;
    try {
      recorded = await host.recorded(() => host.act(body.data.toolName, body.data.params));
    } catch (err) {
      if (err instanceof ProtocolError) return fail(err.code, err.message);
      throw err;
    }
    if (!recorded) return fail('TOOL_EXECUTION_FAILED', NOT_RECORDED, 503);
    return c.json({ ok: true, uiSpec: host.view().uiSpec });
  });

  app.route('/api/rooms/:room/participant', participant);
  // The web host is the room's host, so it holds backend data; agents read only what the relay
  // carries. The story's hidden constraints are the experimenter's alone.
  app.get('/api/scenario', (c) => {
    const capability = c.get('capability');
    if (capability?.kind !== 'host' && !experimenter(capability)) {
      return needed(capability, 'reading the scenario (a study link or an experimenter credential)');
    }
    if (!scenario) return fail('SESSION_NOT_ACTIVE', 'this server was started without a scenario', 404);
    if (capability.kind === 'experimenter') return c.json(scenario);
    const { story: _story, ...world } = scenario;
    return c.json(world);
  });

  // The study link, the participant's and the console's APIs, the export download (@usher/study-host).
  const participantPage = async () => {
    if (!webRoot) return null;
    try {
      return await readFile(join(webRoot, 'index.html'), 'utf8');
    } catch {
      return null;
    }
  };
  studyHost?.mountRoutes(app, { capabilities, client, participantPage });

  if (webRoot) {
    const built = existsSync(join(webRoot, 'index.html'));
    app.use('/*', async (c, next) => {
      if (c.req.method !== 'GET' || c.req.path.startsWith('/api/')) return next();
      if (!built) {
        return c.html(
          '<!doctype html><title>Usher</title><h1>The web host is not built</h1><p>Run <code>npm run build</code>, then reload.</p>',
          503,
        );
      }
      return next();
    });
    // Source maps show the pages' source to anyone; they are served only when asked for.
    if (!sourceMaps) {
      app.get('/*', async (c, next) => (c.req.path.endsWith('.map') ? c.notFound() : next()));
    }
    // The build leaves a Brotli (.br) and a gzip (.gz) copy beside each text asset
    // (packages/web/vite.config.ts); the browser's Accept-Encoding picks one.
    const pages = { root: webRoot, precompressed: true, onFound: cachePolicy } as const;
    // The experimenter's console is its own page of the same app; its API needs the experimenter's credential.
    app.get('/console', serveStatic({ ...pages, path: 'console.html' }));
    app.use('/*', serveStatic(pages));
  }

  app.onError((err, c) => {
    warn(`http: ${c.req.method} ${c.req.path} failed: ${err.stack ?? err.message}`);
    return c.json({ error: { code: 'INTERNAL', message: 'the server failed to handle this request' } }, 500);
  });
  app.notFound((c) => c.json({ error: { code: 'NOT_FOUND', message: `no route ${c.req.method} ${c.req.path}` } }, 404));
  return app;
}
