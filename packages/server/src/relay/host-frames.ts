import {
  type DecodeResult,
  decodeMessage,
  type Message,
  type PayloadOverrides,
  PROTOCOL_VERSION,
  STATE_SOURCES,
  StateActionSchema,
} from '@usher/protocol';
import { z } from 'zod';
import { type Member, scanMembers } from './json-scan.ts';

/**
 * What the relay checks of a host's big frames (`state.updated`, `snapshot.state`: the uiSpec,
 * the chat and the toolSchema, 10–20 KB each): what safety needs, not every field. The payload
 * has exactly the contract's top-level fields (so nothing the host holds, such as backend data,
 * leaves it by a stray key) of the right kinds, and the `action` the relay logs as the
 * participant's is well formed. What is inside the uiSpec, the chat and the toolSchema is the
 * readers' to check: agents read liberally (DESIGN.md). The frame is forwarded as it came and its
 * payload logged as sliced from it, so nothing recursive runs on it here (`JSON.parse` is not
 * recursive), and no depth scan is needed.
 */
const view = {
  uiSpec: z.record(z.string(), z.unknown()).nullable(),
  messageHistory: z.array(z.unknown()),
  toolSchema: z.array(z.unknown()),
};

export const HOST_FRAME_CHECKS: PayloadOverrides = {
  'state.updated': z.strictObject({ source: z.enum(STATE_SOURCES), ...view, action: StateActionSchema.optional() }),
  'snapshot.state': z.strictObject({ sessionId: z.string().nullable(), ...view }),
};

/** A host frame's decoding; a refused reply also names the request it meant to answer, to answer its requester. */
export type HostDecodeResult = DecodeResult | (Extract<DecodeResult, { ok: false }> & { answers?: string });

/** Decodes a host's frame (already within the size cap) with {@link HOST_FRAME_CHECKS}. */
export function decodeHostFrame(text: string): HostDecodeResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, code: 'INVALID_MESSAGE', message: 'frame is not valid JSON' };
  }
  const decoded = decodeMessage(value, HOST_FRAME_CHECKS);
  if (decoded.ok) return decoded;
  const answers = (value as { replyTo?: unknown } | null)?.replyTo;
  return typeof answers === 'string' && answers.length <= 128 ? { ...decoded, answers } : decoded;
}

/** A host's big frame read by {@link scanHostFrame}: the message, and where its payload lies in the text. */
export interface ScannedHostFrame {
  message: Message;
  payloadStart: number;
  payloadEnd: number;
}

/** The payload fields {@link HOST_FRAME_CHECKS} allows, per big frame type, and which must be there. */
const BIG_FRAMES: Record<string, { allowed: Set<string>; required: string[] }> = {
  'state.updated': {
    allowed: new Set(['source', 'uiSpec', 'messageHistory', 'toolSchema', 'action']),
    required: ['source', 'uiSpec', 'messageHistory', 'toolSchema'],
  },
  'snapshot.state': {
    allowed: new Set(['sessionId', 'uiSpec', 'messageHistory', 'toolSchema']),
    required: ['sessionId', 'uiSpec', 'messageHistory', 'toolSchema'],
  },
};
const ENVELOPE_MEMBERS = new Set(['v', 'type', 'id', 'replyTo', 'payload']);
/** Characters below U+0020: whitespace between tokens (a frame on several lines) or invalid in a string. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job.
const CONTROL = /[\u0000-\u001f]/;

/**
 * Reads a host's `state.updated` or `snapshot.state` without building its payload: the text is
 * scanned once ({@link scanMembers}) to prove it is valid JSON on one line, nested within
 * `maxPayloadDepth`, with the envelope's known members only and the payload's known fields only,
 * of the kinds {@link HOST_FRAME_CHECKS} asks; the small fields (`source`, `action`, `sessionId`)
 * are parsed and checked with the same schemas. The big fields are parsed only if something reads
 * them. Returns null for anything else (another type, an unusual layout, an invalid frame), which
 * {@link decodeHostFrame} then decides, with its error messages: the result for a frame this
 * accepts is the one `decodeHostFrame` would give, and its payload text is the frame's own.
 */
export function scanHostFrame(text: string, maxPayloadDepth: number): ScannedHostFrame | null {
  if (CONTROL.test(text)) return null;
  // The envelope is level 1: the payload, opened in the same pass, is level 2.
  const envelope = scanMembers(text, 0, maxPayloadDepth + 1, 'payload');
  if (!envelope || envelope.end !== text.length) return null;
  const fields: Record<string, unknown> = {};
  let payload: Member | undefined;
  for (const member of envelope.members) {
    if (!ENVELOPE_MEMBERS.has(member.key)) return null;
    if (member.key === 'payload') payload = member;
    else if (text.charCodeAt(member.start) === 0x22)
      fields[member.key] = JSON.parse(text.slice(member.start, member.end));
    else return null;
  }
  const shape = BIG_FRAMES[fields.type as string];
  if (!shape || !payload?.members || !ENVELOPE_FIELDS.safeParse(fields).success) return null;
  const spans = new Map(payload.members.map((m) => [m.key, m]));
  for (const key of spans.keys()) if (!shape.allowed.has(key)) return null;
  for (const key of shape.required) if (!spans.has(key)) return null;
  const slice = (key: string) => {
    const m = spans.get(key) as { start: number; end: number };
    return text.slice(m.start, m.end);
  };
  const first = (key: string) => text.charCodeAt((spans.get(key) as { start: number }).start);
  if (first('uiSpec') !== 0x7b && slice('uiSpec') !== 'null') return null;
  if (first('messageHistory') !== 0x5b || first('toolSchema') !== 0x5b) return null;

  const small: Record<string, unknown> = {};
  for (const key of ['source', 'action', 'sessionId']) if (spans.has(key)) small[key] = JSON.parse(slice(key));
  const checked = SMALL_FIELDS[fields.type as 'state.updated' | 'snapshot.state'].safeParse(small);
  if (!checked.success) return null;
  const body: Record<string, unknown> = { ...checked.data };
  // Parsed on first read only: the relay forwards and logs these as they came.
  for (const key of ['uiSpec', 'messageHistory', 'toolSchema']) {
    let value: unknown;
    let parsed = false;
    Object.defineProperty(body, key, {
      enumerable: true,
      get: () => {
        if (!parsed) [value, parsed] = [JSON.parse(slice(key)), true];
        return value;
      },
    });
  }
  const message = { ...fields, payload: body } as Message;
  return { message, payloadStart: payload.start, payloadEnd: payload.end };
}

const ID = z.string().min(1).max(128).optional();
const ENVELOPE_FIELDS = z.strictObject({ v: z.literal(PROTOCOL_VERSION), type: z.string(), id: ID, replyTo: ID });
const SMALL_FIELDS = {
  'state.updated': z.strictObject({ source: z.enum(STATE_SOURCES), action: StateActionSchema.optional() }),
  'snapshot.state': z.strictObject({ sessionId: z.string().nullable() }),
};
