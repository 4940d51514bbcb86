import {
  decodeMessage,
  type ErrorCode,
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
import { type MemberPath, type Span, scanFrame } from './frame-scan.ts';
import { type Lifted, type MemberLimits, StateMembers } from './members.ts';
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

/** Reads one text frame from the relay (every member parsed and checked; see {@link FrameReader}). */
export function readFrame(text: string): FrameRead {
  return readText(text, null);
}

/**
 * A connection's reader of frames: reads as {@link readFrame} does, with the same checks and the
 * same result, but a state's large members whose text it read before (the page's records, the
 * tools, the chat) are not parsed and checked again (members.ts). Their values are shared between
 * the states that carry them, and frozen.
 */
export class FrameReader {
  readonly members: StateMembers;

  constructor(limits?: MemberLimits) {
    this.members = new StateMembers(limits);
  }

  read(text: string): FrameRead {
    return readText(text, this.members);
  }
}

/** The types whose members are kept: the states, whose members have one schema in both. */
const KEPT: ReadonlySet<string> = new Set<MessageType>(['state.updated', 'snapshot.state']);

function readText(text: string, members: StateMembers | null): FrameRead {
  if (exceedsFrameLimit(text)) return failure(`frame exceeds the ${MAX_FRAME_BYTES}-byte limit`, text);
  // The depth bound and the members' places, in one pass before anything recursive runs.
  const scan = scanFrame(text);
  if (scan.tooDeep) return failure(`frame nests deeper than ${MAX_JSON_DEPTH} levels`, text);
  const spans = members && scan.members;
  if (spans) {
    const lifted = members.lift(text, spans);
    const read = lifted && readLifted(lifted, text, spans, members);
    if (read) return read;
  }
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
    if (strict.ok) {
      if (spans && KEPT.has(type)) {
        keepMembers(strict.message, text, spans, members, new Map());
        members.settle();
      }
      return { ok: true, message: byMeaning(strict.message, notes), notes };
    }
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

/**
 * A state read with its known members left out: the rest parsed and checked against the
 * contract's schema (an empty list in each member's place), then the kept values put back. Null
 * when that is not a state the schema accepts as it is: the whole frame is then read as any other
 * (a host's own shape is read by meaning, a broken frame refused with the reason).
 */
function readLifted(lifted: Lifted, text: string, spans: ReadonlyMap<MemberPath, Span>, members: StateMembers) {
  let value: unknown;
  try {
    value = JSON.parse(lifted.text);
  } catch {
    return null;
  }
  if (!isRecord(value) || !KEPT.has(value.type as string)) return null;
  if (value.v !== undefined && value.v !== PROTOCOL_VERSION) return null;
  const strict = decodeMessage({ ...value, v: PROTOCOL_VERSION });
  if (!strict.ok) return null;
  const payload = strict.message.payload as Raw;
  for (const [path, kept] of lifted.values) {
    const at = holderOf(payload, path);
    if (!at || !Array.isArray(at.holder[at.key])) return null;
    at.holder[at.key] = kept;
  }
  keepMembers(strict.message, text, spans, members, lifted.values);
  members.settle();
  const notes: string[] = [];
  return { ok: true as const, message: byMeaning(strict.message, notes), notes };
}

/** Keeps the members of a state the schema accepted (what it gave for each), but those already kept. */
function keepMembers(
  message: Message,
  text: string,
  spans: ReadonlyMap<MemberPath, Span>,
  members: StateMembers,
  lifted: ReadonlyMap<MemberPath, unknown>,
): void {
  for (const [path, span] of spans) {
    if (lifted.has(path)) continue;
    const at = holderOf(message.payload as Raw, path);
    if (at) members.keep(text, path, span, at.holder[at.key]);
  }
}

/** The object holding the member at `path` (`payload.uiSpec.items`: the uiSpec) and its key, when there is one. */
function holderOf(payload: Raw, path: MemberPath): { holder: Raw; key: string } | null {
  const keys = path.split('.').slice(1);
  let holder: unknown = payload;
  for (const key of keys.slice(0, -1)) holder = isRecord(holder) ? holder[key] : undefined;
  const key = keys[keys.length - 1];
  return isRecord(holder) && key !== undefined && Object.hasOwn(holder, key) ? { holder, key } : null;
}

function failure(why: string, text: string): FrameRead {
  const replyTo = replyToOf(text);
  return replyTo === undefined ? { ok: false, why } : { ok: false, why, replyTo };
}
