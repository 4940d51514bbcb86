import { type Message, PROTOCOL_VERSION, STATE_SOURCES, StateActionSchema } from '@usher/protocol';
import { holdsControl, type Member, scanMembers } from './json-scan.ts';

/** A host's big frame read by {@link scanHostFrame}: the message, and where its payload lies in the text. */
export interface ScannedHostFrame {
  message: Message;
  payloadStart: number;
  payloadEnd: number;
}

/** The payload fields `HOST_FRAME_CHECKS` (host-frames.ts) allows, per big frame type; all but `action` are required. */
const BIG_FRAMES: ReadonlyMap<string, string[]> = new Map([
  ['state.updated', ['source', 'uiSpec', 'messageHistory', 'toolSchema', 'action']],
  ['snapshot.state', ['sessionId', 'uiSpec', 'messageHistory', 'toolSchema']],
]);
const SOURCES: ReadonlySet<string> = new Set(STATE_SOURCES);

const isId = (value: unknown) =>
  value === undefined || (typeof value === 'string' && value.length >= 1 && value.length <= 128);

/**
 * A big frame's payload whose uiSpec, chat and toolSchema stay text until something reads them:
 * the relay forwards and logs them as they came, and `JSON.stringify` gives them whole.
 */
class ScannedPayload {
  [key: string]: unknown;
  declare private readonly text: string;
  declare private readonly spans: Member[];

  constructor(text: string, spans: Member[], small: Record<string, unknown>) {
    Object.defineProperty(this, 'text', { value: text });
    Object.defineProperty(this, 'spans', { value: spans });
    Object.assign(this, small);
  }

  get uiSpec(): unknown {
    return this.parsed('uiSpec');
  }
  get messageHistory(): unknown {
    return this.parsed('messageHistory');
  }
  get toolSchema(): unknown {
    return this.parsed('toolSchema');
  }

  toJSON(): Record<string, unknown> {
    return { ...this, uiSpec: this.uiSpec, messageHistory: this.messageHistory, toolSchema: this.toolSchema };
  }

  /**
   * The uiSpec's `stage`, cheaply: Usher's hosts write it first (`{"stage":"seat",…`), so it is
   * read off the text; another layout parses the uiSpec (a researcher's own host).
   */
  stage(): string | null {
    const span = this.spans.find((m) => m.key === 'uiSpec');
    if (!span) return null;
    const head = this.text.slice(span.start, Math.min(span.end, span.start + 80));
    const quick = /^\{"stage":"([a-z-]{1,32})"/.exec(head);
    if (quick) return quick[1] as string;
    const spec = this.uiSpec as { stage?: unknown } | null;
    return typeof spec?.stage === 'string' ? spec.stage : null;
  }

  private parsed(key: string): unknown {
    const span = this.spans.find((m) => m.key === key) as Member;
    return JSON.parse(this.text.slice(span.start, span.end));
  }
}

/**
 * Reads a host's `state.updated` or `snapshot.state` without building its payload: the text is
 * scanned once ({@link scanMembers}) to prove it is valid JSON on one line, nested within
 * `maxPayloadDepth`, with the envelope's known members only and the payload's known fields only,
 * of the kinds `HOST_FRAME_CHECKS` asks; the small fields (`source`, `action`, `sessionId`) are
 * parsed and checked as the schemas do. Returns null for anything else (another type, an unusual
 * layout, an invalid frame), which `decodeHostFrame` then decides, with its error messages: the
 * message for a frame this accepts is the one `decodeHostFrame` would give, and its payload text
 * is the frame's own.
 */
export function scanHostFrame(text: string, maxPayloadDepth: number): ScannedHostFrame | null {
  // The envelope is level 1: the payload, opened in the same pass, is level 2.
  const envelope = scanMembers(text, 0, maxPayloadDepth + 1, 'payload');
  if (!envelope || envelope.end !== text.length) return null;
  // A big frame's type, as Usher's hosts write it; any other frame goes to the full decoder.
  const type = envelope.members.find((m) => m.key === 'type');
  const allowed = type && BIG_FRAMES.get(text.slice(type.start + 1, type.end - 1));
  // Only then the whole text is searched for control characters, before any of it is parsed.
  if (!allowed || text.charCodeAt(type.start) !== 0x22 || holdsControl(text)) return null;
  const fields: Record<string, unknown> = {};
  let payload: Member | undefined;
  for (const member of envelope.members) {
    const { key, start, end } = member;
    if (key === 'payload') payload = member;
    else if (key !== 'v' && key !== 'type' && key !== 'id' && key !== 'replyTo') return null;
    else if (text.charCodeAt(start) !== 0x22) return null;
    else fields[key] = JSON.parse(text.slice(start, end));
  }
  const spans = payload?.members;
  if (!payload || !spans || fields.v !== PROTOCOL_VERSION) return null;
  if (!isId(fields.id) || !isId(fields.replyTo)) return null;

  const small: Record<string, unknown> = {};
  let required = 0;
  for (const { key, start, end } of spans) {
    if (!allowed.includes(key)) return null;
    if (key !== 'action') required += 1;
    const first = text.charCodeAt(start);
    if (key === 'uiSpec') {
      if (first !== 0x7b && !text.startsWith('null', start)) return null;
    } else if (key === 'messageHistory' || key === 'toolSchema') {
      if (first !== 0x5b) return null;
    } else {
      small[key] = JSON.parse(text.slice(start, end));
    }
  }
  if (required !== allowed.length - (allowed.includes('action') ? 1 : 0)) return null;
  if ('source' in small && !SOURCES.has(small.source as string)) return null;
  if ('sessionId' in small && small.sessionId !== null && typeof small.sessionId !== 'string') return null;
  if ('action' in small) {
    const action = StateActionSchema.safeParse(small.action);
    if (!action.success) return null;
    small.action = action.data;
  }
  const message = { ...fields, payload: new ScannedPayload(text, spans, small) } as unknown as Message;
  return { message, payloadStart: payload.start, payloadEnd: payload.end };
}

/** The stage of a host state's uiSpec (a payload the scan read, or one the decoder built), or null. */
export function uiSpecStage(payload: unknown): string | null {
  if (payload instanceof ScannedPayload) return payload.stage();
  const spec = (payload as { uiSpec?: { stage?: unknown } | null } | null)?.uiSpec;
  return typeof spec?.stage === 'string' ? spec.stage : null;
}
