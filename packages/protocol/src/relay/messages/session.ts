import { z } from 'zod';

const label = z.string().min(1).max(128);

/** A study session id as the relay issues it, e.g. `s-20261121-001`. */
export const StudySessionIdSchema = z
  .string()
  .regex(/^s-\d{8}-\d{3,}$/, 'a study session id looks like s-20261121-001');

/**
 * §4.1 `session.start`. The relay adds `sessionId` (the study session it opened) when it
 * forwards the request to the host; an agent leaves it out.
 */
export const SessionStartPayload = z.object({
  studyId: label,
  participantId: label,
  sessionId: StudySessionIdSchema.optional(),
});

/** §4.2 `session.started`. */
export const SessionStartedPayload = z.strictObject({ sessionId: StudySessionIdSchema });

/** §4.1 `session.end`. */
export const SessionEndPayload = z.object({ reason: z.string().max(256).optional() });

/**
 * §4.2 `session.ended`: sent only once the study log is complete and on disk. The relay fills in
 * `logFile`, the log's path relative to the server's working folder.
 */
export const SessionEndedPayload = z.strictObject({
  sessionId: StudySessionIdSchema,
  logFile: z.string(),
  stateReset: z.boolean(),
});
