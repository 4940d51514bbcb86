import {
  decodeMessage,
  type ErrorCode,
  exceedsDepth,
  exceedsFrameLimit,
  MAX_FRAME_BYTES,
  MAX_JSON_DEPTH,
  type Message,
  type MessageType,
  PROTOCOL_VERSION,
  ROLES,
  replyToOf,
  STATE_SOURCES,
  type UiSpec,
} from '@usher/protocol';
import { inModelTerms } from './records.ts';
import { idFrom, readHistory, readTools, readUiSpec, stageFrom } from './view.ts';

/*
 * The agent's reader of what the relay sends (liberal in what it reads, DESIGN.md): the envelope
 * and the fields the agent acts on are checked; keys and message types it does not know are
 * ignored. A frame it cannot use says why, so the client can log it and resync.
 */

/** What reading one frame gave. */
export type FrameRead =
  /** A message the agent can act on, in the contract's shape; `notes` says what was left out of it. */
  | { ok: true; message: Message; notes: string[] }
  /** A message type the agent has no use for (`relay.presence`, another relay's notices): skipped. */
  | { ok: 'skipped'; type: string }
  /** A frame the agent cannot use, with the request it answers when that is readable. */
  | { ok: false; why: string; replyTo?: string };

/** The types an agent receives and acts on. */
const READS: ReadonlySet<string> = new Set<MessageType>([
  'relay.joined',
  'session.started',
  'session.ended',
  'snapshot.state',
  'state.updated',
  'tool.result',
  'user.message',
  // Step approval: the participant's decision on a proposed step (read strictly; a malformed one is unusable).
  'participant.proposal',
  'error',
]);

type Raw = Record<string, unknown>;
const isRecord = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

class Unusable extends Error {}

function need<T>(value: T | undefined, why: string): T {
  if (value === undefined) throw new Unusable(why);
  return value;
}

/** A uiSpec read liberally; a missing one is null. */
function uiSpecOf(raw: unknown, notes: string[]): UiSpec | null {
  const read = readUiSpec(raw);
  if (!read.ok) throw new Unusable(read.why);
  if (read.dropped > 0) notes.push(`${read.dropped} item record(s) without a usable id were left out`);
  return read.spec;
}

const SOURCES: Record<string, (typeof STATE_SOURCES)[number]> = { participant: 'user', system: 'host' };

function sourceOf(raw: unknown): (typeof STATE_SOURCES)[number] {
  if (typeof raw === 'string' && (STATE_SOURCES as readonly string[]).includes(raw)) return raw as 'user';
  return (typeof raw === 'string' && SOURCES[raw]) || 'host';
}

/** The payload the agent needs of a frame the contract's own schema refused. */
function liberalPayload(type: string, p: Raw, notes: string[]): Raw {
  switch (type) {
    case 'relay.joined': {
      const role = need(
        ROLES.find((r) => r === p.role),
        `relay.joined has no role it knows (${String(p.role)})`,
      );
      return {
        role,
        sessionId: idFrom(p.sessionId) ?? '',
        ...(typeof p.hostPresent === 'boolean' && { hostPresent: p.hostPresent }),
        ...(typeof p.replaced === 'boolean' && { replaced: p.replaced }),
      };
    }
    case 'session.started':
      return { sessionId: need(idFrom(p.sessionId ?? p.id ?? p.session), 'session.started names no session id') };
    case 'session.ended':
      return {
        sessionId: idFrom(p.sessionId) ?? '',
        logFile: typeof p.logFile === 'string' ? p.logFile : '',
        stateReset: p.stateReset === true,
      };
    case 'snapshot.state':
    case 'state.updated': {
      const view = {
        uiSpec: uiSpecOf(p.uiSpec, notes),
        messageHistory: readHistory(p.messageHistory),
        toolSchema: readTools(p.toolSchema),
      };
      if (type === 'snapshot.state') return { sessionId: idFrom(p.sessionId) ?? null, ...view };
      const action = p.action;
      const tagged = isRecord(action) && typeof action.toolName === 'string' && isRecord(action.params);
      return { source: sourceOf(p.source), ...view, ...(tagged && { action }) };
    }
    case 'tool.result': {
      if (typeof p.ok !== 'boolean') throw new Unusable('tool.result has no boolean `ok`');
      const uiSpec = p.uiSpec === undefined ? undefined : uiSpecOf(p.uiSpec, notes);
      return { ok: p.ok, toolName: typeof p.toolName === 'string' ? p.toolName : '', ...(uiSpec && { uiSpec }) };
    }
    case 'user.message': {
      const text = typeof p.text === 'string' ? p.text.trim().slice(0, 4000) : '';
      if (text === '') throw new Unusable('user.message has no text');
      const stage = stageFrom(p.stage);
      return { text, ...(stage && { stage }) };
    }
    case 'participant.proposal':
      throw new Unusable('participant.proposal does not name a proposal and a decision (approve or reject)');
    default: {
      const code = need(typeof p.code === 'string' ? p.code : undefined, 'error has no code');
      return { code: code as ErrorCode, message: typeof p.message === 'string' ? p.message : code };
    }
  }
}

/** A message the contract's schema accepted, with its uiSpec's records read by meaning too (when they need it). */
function byMeaning(message: Message, notes: string[]): Message {
  if (message.type === 'snapshot.state' || message.type === 'state.updated' || message.type === 'tool.result') {
    const { uiSpec } = message.payload;
    if (uiSpec && !asItCame(uiSpec))
      return { ...message, payload: { ...message.payload, uiSpec: uiSpecOf(uiSpec, notes) } } as Message;
  }
  return message;
}

/** Meta keys that say something in other words than the agent's (read/view.ts). */
const OTHER_META = ['ratingScale', 'ratingMax', 'aisles', 'aisleAfterSeat', 'currentDate', 'studyDate', 'todayDate'];

/** A contract-shaped uiSpec whose items and meta are already in the agent's terms: nothing to read again. */
function asItCame(spec: UiSpec): boolean {
  const meta = spec.meta ?? {};
  const rows = meta.rows;
  return (
    !OTHER_META.some((key) => key in meta) &&
    (rows === undefined ||
      (Array.isArray(rows) && rows.every((r) => typeof r === 'string' && /^[A-Z]{1,2}$/.test(r)))) &&
    inModelTerms(spec.stage, spec.items) &&
    inModelTerms(spec.stage, spec.visibleItems)
  );
}

/** Reads one text frame from the relay. */
export function readFrame(text: string): FrameRead {
  if (exceedsFrameLimit(text)) return failure(`frame exceeds the ${MAX_FRAME_BYTES}-byte limit`, text);
  if (exceedsDepth(text)) return failure(`frame nests deeper than ${MAX_JSON_DEPTH} levels`, text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return failure('frame is not valid JSON', text);
  }
  if (!isRecord(value)) return { ok: false, why: 'a frame must be a JSON object (an envelope)' };
  if (value.v !== undefined && value.v !== PROTOCOL_VERSION)
    return failure(`protocol version ${JSON.stringify(value.v)?.slice(0, 20)}, not ${PROTOCOL_VERSION}`, text);
  const type = value.type;
  if (typeof type !== 'string') return failure('the envelope has no type', text);
  if (!READS.has(type)) return { ok: 'skipped', type: type.slice(0, 64) };
  const replyTo = idFrom(value.replyTo);
  const notes: string[] = [];
  try {
    const strict = decodeMessage({ ...value, v: PROTOCOL_VERSION });
    if (strict.ok) return { ok: true, message: byMeaning(strict.message, notes), notes };
    const payload = liberalPayload(type, isRecord(value.payload) ? value.payload : {}, notes);
    const id = idFrom(value.id);
    const message = {
      v: PROTOCOL_VERSION,
      type,
      ...(id !== undefined && { id }),
      ...(replyTo !== undefined && { replyTo }),
      payload,
    } as Message;
    return { ok: true, message, notes };
  } catch (err) {
    if (!(err instanceof Unusable)) throw err;
    return replyTo === undefined ? { ok: false, why: err.message } : { ok: false, why: err.message, replyTo };
  }
}

function failure(why: string, text: string): FrameRead {
  const replyTo = replyToOf(text);
  return replyTo === undefined ? { ok: false, why } : { ok: false, why, replyTo };
}
