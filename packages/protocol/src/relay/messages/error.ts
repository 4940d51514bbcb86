import { z } from 'zod';
import { ErrorCodeSchema } from '../errors.ts';

/** §4.2 `error`, sent with `replyTo` when it answers a request that had an id. */
export const ErrorPayload = z.strictObject({
  code: ErrorCodeSchema,
  message: z.string(),
});
