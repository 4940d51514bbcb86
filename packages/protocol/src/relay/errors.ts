import { z } from 'zod';
import { capText, MAX_ERROR_TEXT } from '../bounds.ts';

/**
 * The error codes of external-agent-protocol §5, used as DESIGN.md assigns them:
 * - `INVALID_MESSAGE`: the frame is not a well-formed envelope, or its role may not send it.
 * - `SESSION_NOT_ACTIVE`: not joined, no study session, or no host in the room.
 * - `UNKNOWN_TOOL`: a tool name that is not in the current toolSchema.
 * - `INVALID_PARAMS`: params that fail the tool's schema, a missing reason, an item that is not visible.
 * - `NO_ACTIVE_SPEC`: a tool call while no uiSpec is loaded.
 * - `TOOL_EXECUTION_FAILED`: a valid call the host could not apply.
 */
export const ERROR_CODES = [
  'INVALID_MESSAGE',
  'SESSION_NOT_ACTIVE',
  'UNKNOWN_TOOL',
  'INVALID_PARAMS',
  'NO_ACTIVE_SPEC',
  'TOOL_EXECUTION_FAILED',
] as const;

export const ErrorCodeSchema = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** An error meant for the wire: its code is one of the protocol's, its message is for a person. */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Turns anything thrown into a wire error. Protocol errors keep their code; anything else is a
 * fault on the answering side, reported as `TOOL_EXECUTION_FAILED` without internal detail.
 */
export function toWireError(err: unknown): { code: ErrorCode; message: string } {
  if (err instanceof ProtocolError) return { code: err.code, message: capText(err.message, MAX_ERROR_TEXT) };
  return { code: 'TOOL_EXECUTION_FAILED', message: 'the host failed to apply the request' };
}

/** Renders a zod error as one line naming each bad field, e.g. `payload.reason: Too small`; at most 10 issues. */
export function describeZodError(error: z.ZodError, prefix = ''): string {
  const more = error.issues.length > 10 ? `; and ${error.issues.length - 10} more` : '';
  return `${error.issues
    .slice(0, 10)
    .map((issue) => {
      const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ')}${more}`;
}
