import type { IncomingMessage } from 'node:http';
import { ControlPressSchema, FlowStepSchema, type ParticipantView } from '@usher/protocol';
import type { Capabilities, Capability } from '@usher/relay';
import { type ClientView, limitKey } from '@usher/relay';
import { AssignmentError } from '@usher/study';
import type { Context, Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { z } from 'zod';
import { ControlError, type ParticipantControls } from '../study/participant-controls.ts';
import { FlowError, StudyFullError, type StudyMode } from '../study/study-mode.ts';
import { mountQuestionnaireRoutes } from './questionnaire-routes.ts';
import { readJson } from './read-json.ts';
import { ViewBodies } from './view-body.ts';

/**
 * The study's routes (study mode): the study link, and the participant's own API, which needs
 * the room's host credential the link hands out (or, in open mode, the room's name, which only
 * the link gives out).
 * - `GET /s/<study id>?PROLIFIC_PID=…` admits the participant and sends them to their page.
 * - `GET /api/participant` says where they are; `POST /api/participant/step` moves them on;
 *   `POST /api/participant/questionnaire` answers a questionnaire (questionnaire-routes.ts).
 */
export function mountStudyRoutes(
  app: Hono<{ Variables: { capability: Capability | null } }>,
  mode: StudyMode,
  capabilities: Capabilities | null,
  fail: (code: string, message: string, status: 400 | 401 | 403 | 404 | 409 | 429 | 503) => Response,
  /** How many new participants one address may admit a minute: each opening of the link makes one. */
  admissionsPerMinute: number,
  /** Where a request comes from, and whether over HTTPS (access/client-address.ts). */
  client: ClientView,
  /** The participant's page (the built `index.html`), or null when none is built. */
  participantPage: () => Promise<string | null> = async () => null,
  /** The participant's controls over the agent beside them. */
  controls?: ParticipantControls,
): void {
  const admissions = new RateLimiterMemory({ points: admissionsPerMinute, duration: 60 });
  // A view on a task carries its world: its JSON and its compression are made once per task.
  const bodies = new ViewBodies();
  const viewAnswer = (c: Context, view: ParticipantView) => bodies.response(view, c.req.header('accept-encoding'));

  const studyLink = async (c: Context) => {
    if (c.req.param('studyId') !== mode.study.id) {
      return noSuchStudy(c);
    }
    // Not a visit: a link preview or a browser guessing where its user goes next. It admits nobody
    // (no participant, no condition slot, no admission counted); the visit that follows does.
    const notVisit = notAVisit(c);
    if (notVisit) return notAVisitAnswer(c, notVisit, mode.study.participantTitle ?? mode.study.title);
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const address = incoming ? client.address(incoming) : 'unknown';
    try {
      await admissions.consume(limitKey(address));
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      return linkProblem(
        c,
        429,
        'TOO_MANY_REQUESTS',
        'Too many new participants from here',
        'Too many people opened this study from this address in the last minute; try again in a minute.',
        'too many new participants from this address; try again in a minute',
      );
    }
    let admitted: ReturnType<StudyMode['admit']>;
    try {
      admitted = mode.admit(new URL(c.req.url).searchParams);
    } catch (err) {
      if (err instanceof AssignmentError)
        return linkProblem(c, 400, 'INVALID_LINK', 'This study link does not work', err.message);
      throw err;
    }
    const { participant } = admitted;
    // A participant comes back in the browser they started in: it holds their return key, so
    // someone who knows or guesses their id cannot take their room.
    const cookie = `usher_return_${mode.study.id}`;
    const held = returnKeys(getCookie(c, cookie));
    if (admitted.returnKey) {
      // Added to the keys this browser already holds: a second participant here (a shared
      // computer, or the link opened once without an id) does not lock the first one out.
      setCookie(c, cookie, [...held.slice(1 - MAX_RETURN_KEYS), admitted.returnKey].join('.'), {
        path: `/s/${mode.study.id}`,
        httpOnly: true,
        sameSite: 'Lax',
        secure: incoming !== undefined && client.https(incoming),
        maxAge: RETURN_KEY_DAYS * 86_400,
      });
    } else if (
      admitted.returning &&
      mode.returnKeyMatches(participant, undefined) === false &&
      !held.some((key) => mode.returnKeyMatches(participant, key))
    ) {
      return linkProblem(
        c,
        409,
        'ALREADY_STARTED',
        'This study was started in another browser',
        'Continue in the browser where you started it. If you cannot, contact the researcher, who can send you a link to your study.',
      );
    }
    const page = new URLSearchParams({ room: participant.room, study: mode.study.id, participant: participant.id });
    if (capabilities) page.set('token', await capabilities.issue({ kind: 'host', room: participant.room }));
    const pageAddress = `/?${page}`;
    // A browser gets its page in this answer, the address set to the page's own before any of its
    // scripts runs: no redirect, whose round trip a phone waits for before the page starts coming.
    // Anything else (a script following the link) is redirected as before.
    const html = (c.req.header('accept') ?? '').includes('text/html') ? await participantPage() : null;
    if (html?.includes('<head>')) {
      c.header('Cache-Control', 'no-store');
      const script = `<script>history.replaceState(null,'',${JSON.stringify(pageAddress).replace(/</g, '\\u003c')})</script>`;
      return c.html(html.replace('<head>', `<head>${script}`));
    }
    return c.redirect(pageAddress, 302);
  };
  // With a slash after it too (a link copied with one); anything else under /s/ is a link that does not work.
  app.get('/s/:studyId', studyLink);
  app.get('/s/:studyId/', studyLink);
  app.get('/s/*', noSuchStudy);

  /**
   * The participant a request speaks for: the room of its host credential (or, in open mode,
   * `?room=`). A page that names a room (`?room=`) other than its credential's speaks for nobody:
   * it holds someone else's credential, and would show their task over a room it cannot join.
   */
  const whose = (capability: Capability | null, url: string) => {
    const named = new URL(url).searchParams.get('room');
    const room =
      capability?.kind === 'host'
        ? named === null || named === capability.room
          ? capability.room
          : null
        : capability?.kind === 'open'
          ? named
          : null;
    return room ? mode.byRoom(room) : null;
  };

  app.get('/api/participant', (c) => {
    const participant = whose(c.get('capability'), c.req.url);
    if (!participant) return fail('UNAUTHORIZED', "this needs a participant's link", 401);
    return viewAnswer(c, withControls(participant));
  });

  /** The view, with where the participant's controls stand while they are on a task. */
  const withControls = (participant: NonNullable<ReturnType<typeof whose>>) => {
    const view = mode.view(participant);
    return controls && participant.status === 'task' ? { ...view, agentControl: controls.state(participant) } : view;
  };

  // The participant's controls over the agent: {"control": "pause" | "resume" | "take-over" | "hand-back"}.
  app.post('/api/participant/control', async (c) => {
    const participant = whose(c.get('capability'), c.req.url);
    if (!participant) return fail('UNAUTHORIZED', "this needs a participant's link", 401);
    if (!controls) return fail('NOT_FOUND', 'this server runs no agents', 404);
    const body = ControlPressSchema.safeParse(await readJson(c.req));
    if (!body.success) {
      return fail(
        'INVALID_MESSAGE',
        `body must be {"control": "pause" | "resume" | "take-over" | "hand-back"}: ${z.prettifyError(body.error)}`,
        400,
      );
    }
    try {
      return c.json({ agentControl: controls.press(participant, body.data.control) });
    } catch (err) {
      if (err instanceof ControlError) return fail(err.code, err.message, err.code === 'CONTROL_OFF' ? 403 : 409);
      throw err;
    }
  });

  app.post('/api/participant/step', async (c) => {
    const participant = whose(c.get('capability'), c.req.url);
    if (!participant) return fail('UNAUTHORIZED', "this needs a participant's link", 401);
    const body = FlowStepSchema.safeParse(await readJson(c.req));
    if (!body.success) {
      return fail(
        'INVALID_MESSAGE',
        `body must be {"step": "consent" | "start-task" | "end-task", "outcome"?, "taskIndex"?}: ${z.prettifyError(body.error)}`,
        400,
      );
    }
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    try {
      return viewAnswer(c, mode.step(participant, body.data, incoming && limitKey(client.address(incoming))));
    } catch (err) {
      if (err instanceof FlowError) return fail('OUT_OF_STEP', err.message, 409);
      if (err instanceof StudyFullError) {
        return err.perAddress ? fail('TOO_MANY_REQUESTS', err.message, 429) : fail('STUDY_FULL', err.message, 503);
      }
      throw err;
    }
  });

  mountQuestionnaireRoutes(app, mode, whose, fail, viewAnswer);
}

/** How long a participant's browser keeps the key to return to their study (days). */
const RETURN_KEY_DAYS = 90;
/** The most return keys one browser keeps for a study (the newest): one per participant who started there. */
export const MAX_RETURN_KEYS = 10;

/** The return keys a study's cookie holds (`key.key…`, each as the registry makes them); anything else is ignored. */
function returnKeys(cookie: string | undefined): string[] {
  if (!cookie || cookie.length > MAX_RETURN_KEYS * 40) return [];
  return cookie
    .split('.')
    .filter((key) => /^[\w-]{32}$/.test(key))
    .slice(-MAX_RETURN_KEYS);
}

/**
 * Link previews (a chat app or a social site unfurling the link) that fetch it with GET under
 * their own name; HEAD and the browsers' prefetch headers cover the rest.
 */
const PREVIEW_AGENTS =
  /\b(Slackbot|facebookexternalhit|Facebot|Twitterbot|WhatsApp|TelegramBot|Discordbot|LinkedInBot|SkypeUriPreview|Iframely|Embedly|redditbot|Mastodon|Pinterestbot|Google-PageRenderer|MicrosoftPreview)\b/i;

/**
 * What a request of the study link is when it is not a person's visit: a `prefetch` (or prerender,
 * `Sec-Purpose`, `Purpose`, Firefox's `X-Moz`, Safari's `X-Purpose: preview`), or a `preview` (a
 * HEAD request, a known link previewer); null for a visit.
 */
function notAVisit(c: Context): 'prefetch' | 'preview' | null {
  const purpose = ['sec-purpose', 'purpose', 'x-purpose', 'x-moz'].map((name) => c.req.header(name) ?? '').join(' ');
  if (/\b(prefetch|prerender|preview)\b/i.test(purpose)) return 'prefetch';
  if (c.req.method === 'HEAD' || PREVIEW_AGENTS.test(c.req.header('user-agent') ?? '')) return 'preview';
  return null;
}

/**
 * What a request that is not a visit gets, never stored by a cache (which would hand it to the
 * visit): a prefetch `503`, as a browser uses no prefetch that failed and the visit itself comes to
 * the server; a preview a small page with the title participants see.
 */
function notAVisitAnswer(c: Context, kind: 'prefetch' | 'preview', title: string): Response {
  c.header('Cache-Control', 'no-store');
  c.header('X-Robots-Tag', 'noindex');
  if (kind === 'prefetch') return c.body(null, 503);
  const safe = escapeHtml(title);
  return c.html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${safe}</title><meta property="og:title" content="${safe}"></head>` +
      `<body><p>${safe}: open this link in your browser to take part.</p></body></html>`,
  );
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A link under `/s/` that names no study of this server (mistyped, cut short). */
function noSuchStudy(c: Context): Response {
  return linkProblem(
    c,
    404,
    'NOT_FOUND',
    'This study link does not work',
    'No study on this server has this link. Check that the link is complete, or open the link you were given again.',
    'no such study on this server',
  );
}

/**
 * A study link that cannot be followed: a page a participant can read (they opened the link in a
 * browser), or the API's JSON error for anything that does not ask for HTML (`apiMessage`, or
 * `message`).
 */
function linkProblem(
  c: Context,
  status: 400 | 404 | 409 | 429,
  code: string,
  title: string,
  message: string,
  apiMessage = message,
): Response {
  if (!(c.req.header('accept') ?? '').includes('text/html')) {
    return Response.json({ error: { code, message: apiMessage } }, { status });
  }
  const safe = escapeHtml;
  return c.html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${safe(title)}</title>` +
      '<style>body{font:16px/1.6 system-ui,sans-serif;background:#f4f5f8;color:#121826;margin:0;display:grid;place-items:center;min-height:100vh}' +
      'main{max-width:560px;margin:24px;padding:32px 36px;background:#fff;border:1px solid #e2e5eb;border-radius:12px}h1{font-size:24px;margin:0 0 12px}p{color:#475063;margin:0}</style></head>' +
      `<body><main role="alert"><h1>${safe(title)}</h1><p>${safe(message)}</p></main></body></html>`,
    status,
  );
}
