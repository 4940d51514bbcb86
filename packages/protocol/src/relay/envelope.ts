import { z } from 'zod';
import { capText, exceedsDepth, holdsLoneSurrogate, MAX_ERROR_TEXT, MAX_JSON_DEPTH } from '../bounds.ts';
import { describeZodError, type ErrorCode } from './errors.ts';
import { isMessageType, MESSAGES, type MessageType, type PayloadInputOf, type PayloadOf } from './messages/index.ts';
import { MAX_FRAME_BYTES, PROTOCOL_VERSION } from './version.ts';

const RequestIdSchema = z.string().min(1).max(128);

/** The common envelope of external-agent-protocol §3, before the payload is checked. */
export const EnvelopeSchema = z.object({
  v: z.literal(PROTOCOL_VERSION),
  type: z.string(),
  id: RequestIdSchema.optional(),
  replyTo: RequestIdSchema.optional(),
  payload: z.record(z.string(), z.unknown()),
});

/** A parsed envelope whose payload has been checked against its type's schema. */
export type Message = {
  [T in MessageType]: { v: typeof PROTOCOL_VERSION; type: T; id?: string; replyTo?: string; payload: PayloadOf<T> };
}[MessageType];

export type MessageOf<T extends MessageType> = Extract<Message, { type: T }>;

/** Why a frame was refused, with the request id to answer when the frame had a readable one. */
export interface DecodeFailure {
  ok: false;
  code: ErrorCode;
  message: string;
  replyTo?: string;
}

/** A decoded envelope, and the object it was parsed from (for code that forwards the frame as it came). */
export type DecodeResult = { ok: true; message: Message; raw: Record<string, unknown> } | DecodeFailure;

function readableId(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' && id.length > 0 && id.length <= 128 ? id : undefined;
}

/** Payload schemas a reader uses instead of the contract's own for some types (a relay's lighter checks of host frames). */
export type PayloadOverrides = Partial<Record<MessageType, z.ZodType<Record<string, unknown>>>>;

/**
 * Checks a value that claims to be an envelope: its shape, its type and its payload. A broken
 * envelope is `INVALID_MESSAGE`; a `tool.call` whose reason or params are wrong is
 * `INVALID_PARAMS` (DESIGN.md).
 */

export function decodeMessage(value: unknown, overrides: PayloadOverrides = {}): DecodeResult {
  const replyTo = readableId(value);
  const fail = (code: ErrorCode, message: string): DecodeFailure =>
    replyTo === undefined ? { ok: false, code, message } : { ok: false, code, message, replyTo };

  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail('INVALID_MESSAGE', 'a frame must be a JSON object (an envelope)');
  }
  const envelope = EnvelopeSchema.safeParse(value);
  if (!envelope.success) {
    const v = (value as { v?: unknown }).v;
    if (v !== PROTOCOL_VERSION) {
      return fail(
        'INVALID_MESSAGE',
        `unsupported protocol version ${JSON.stringify(v)}; expected "${PROTOCOL_VERSION}"`,
      );
    }
    return fail('INVALID_MESSAGE', `malformed envelope: ${describeZodError(envelope.error)}`);
  }
  const { type } = envelope.data;
  if (!isMessageType(type)) return fail('INVALID_MESSAGE', `unknown message type "${capText(type, 64)}"`);

  const payload = (overrides[type] ?? MESSAGES[type].payload).safeParse(envelope.data.payload);
  if (!payload.success) {
    const paramsProblem =
      type === 'tool.call' && payload.error.issues.every((i) => i.path[0] === 'reason' || i.path[0] === 'params');
    return fail(
      paramsProblem ? 'INVALID_PARAMS' : 'INVALID_MESSAGE',
      `invalid ${type}: ${describeZodError(payload.error, 'payload')}`,
    );
  }
  const message = { ...envelope.data, payload: payload.data } as Message;
  return { ok: true, message, raw: value as Record<string, unknown> };
}

/**
 * Whether a frame's UTF-8 encoding is over {@link MAX_FRAME_BYTES}, decided without encoding it
 * (this package runs in browsers too): every UTF-16 unit is 1 to 3 bytes.
 */
export function exceedsFrameLimit(text: string): boolean {
  if (text.length > MAX_FRAME_BYTES) return true;
  if (text.length * 3 <= MAX_FRAME_BYTES) return false;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    bytes += c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 2 : 3;
  }
  return bytes > MAX_FRAME_BYTES;
}

/**
 * The envelope's `id` read from its text without parsing it, so a frame too deep to parse is
 * still answered: only the envelope's own members are searched (the text before its first
 * nested object or array).
 */
function envelopeIdOf(text: string): string | undefined {
  const open = text.indexOf('{');
  const nested = text.slice(open + 1).search(/[[{]/);
  const head = nested < 0 ? text : text.slice(0, open + 1 + nested);
  return /"id"\s*:\s*"([^"\\]{1,128})"/.exec(head)?.[1];
}

/**
 * A reply's `replyTo`, read from its text without parsing it (a frame too large or too odd to
 * parse), so the request it answers can still be ended: the first `"replyTo"` member anywhere.
 */
export function replyToOf(text: string): string | undefined {
  const at = text.indexOf('"replyTo"');
  return at < 0 ? undefined : /^"replyTo"\s*:\s*"([^"\\]{1,128})"/.exec(text.slice(at, at + 200))?.[1];
}

/** Decodes one WebSocket text frame: size cap, JSON, then {@link decodeMessage}. */
export function decodeFrame(text: string): DecodeResult {
  if (exceedsFrameLimit(text)) {
    return { ok: false, code: 'INVALID_MESSAGE', message: `frame exceeds the ${MAX_FRAME_BYTES}-byte limit` };
  }
  // Before anything recursive: a few KB of nesting must not exhaust a reader's stack.
  if (exceedsDepth(text)) {
    const failure: DecodeFailure = {
      ok: false,
      code: 'INVALID_MESSAGE',
      message: `frame nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels`,
    };
    const replyTo = envelopeIdOf(text);
    return replyTo === undefined ? failure : { ...failure, replyTo };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, code: 'INVALID_MESSAGE', message: 'frame is not valid JSON' };
  }
  if (holdsLoneSurrogate(text, value)) {
    const replyTo = readableId(value);
    const failure: DecodeFailure = { ok: false, code: 'INVALID_MESSAGE', message: NOT_UNICODE };
    return replyTo === undefined ? failure : { ...failure, replyTo };
  }
  return decodeMessage(value);
}

/** Why a frame holding half a surrogate pair is refused (see {@link holdsLoneSurrogate}). */
export const NOT_UNICODE =
  'frame holds half a surrogate pair (an escape such as \\ud83d without its other half): text must be Unicode';

/**
 * Builds an outbound envelope, checking the payload against its schema so that nothing
 * malformed is ever sent. Throws a zod error on a bad payload: that is a bug on the sending side.
 */
export function createMessage<T extends MessageType>(
  type: T,
  payload: PayloadInputOf<T>,
  ids: { id?: string | undefined; replyTo?: string | undefined } = {},
): MessageOf<T> {
  const parsed = MESSAGES[type].payload.parse(payload);
  const message: Record<string, unknown> = { v: PROTOCOL_VERSION, type };
  if (ids.id !== undefined) message.id = ids.id;
  if (ids.replyTo !== undefined) message.replyTo = ids.replyTo;
  message.payload = parsed;
  return message as MessageOf<T>;
}

/** Builds an `error` envelope answering `replyTo` (when the request had an id). */
export function createError(code: ErrorCode, message: string, replyTo?: string): MessageOf<'error'> {
  return createMessage('error', { code, message: capText(message, MAX_ERROR_TEXT) }, { replyTo });
}
