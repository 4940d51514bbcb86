import { type ParticipantView, QuestionnaireSubmissionSchema } from '@usher/protocol';
import type { Capability } from '@usher/relay';
import type { Participant } from '@usher/study';
import type { Context, Hono } from 'hono';
import { AnswersRefused } from '../study/questionnaires.ts';
import { FlowError, type StudyMode } from '../study/study-mode.ts';
import { readJson } from './read-json.ts';

/**
 * `POST /api/participant/questionnaire` `{questionnaire: "per-task" | "post-study", answers:
 * {<item id>: value}, at?}`: the participant's answers to the questionnaire they are on. Refused
 * whole, changing nothing: `400 INVALID_MESSAGE` for a body of the wrong shape, `400
 * INVALID_ANSWERS` (with `problems: [{itemId, problem, message}]`) for answers that do not fit the
 * questionnaire, `409 OUT_OF_STEP` when the participant is not on that questionnaire.
 */
export function mountQuestionnaireRoutes(
  app: Hono<{ Variables: { capability: Capability | null } }>,
  mode: StudyMode,
  whose: (capability: Capability | null, url: string) => Participant | null,
  fail: (code: string, message: string, status: 400 | 401 | 409) => Response,
  /** The view as the answer (http/view-body.ts). */
  viewAnswer: (c: Context, view: ParticipantView) => Response,
): void {
  app.post('/api/participant/questionnaire', async (c) => {
    const participant = whose(c.get('capability'), c.req.url);
    if (!participant) return fail('UNAUTHORIZED', "this needs a participant's link", 401);
    const body = QuestionnaireSubmissionSchema.safeParse(await readJson(c.req));
    if (!body.success) {
      const issues = body.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.') || 'body'}: ${i.message}`)
        .join('; ');
      return fail(
        'INVALID_MESSAGE',
        `body must be {"questionnaire": "per-task" | "post-study", "answers": {<item id>: value}, "at"?}: ${issues}`,
        400,
      );
    }
    try {
      return viewAnswer(c, mode.answer(participant, body.data));
    } catch (err) {
      if (err instanceof AnswersRefused) {
        return c.json({ error: { code: 'INVALID_ANSWERS', message: err.message, problems: err.problems } }, 400);
      }
      if (err instanceof FlowError) return fail('OUT_OF_STEP', err.message, 409);
      throw err;
    }
  });
}
