import { decodeFrame, type ErrorCode, exceedsDepth, MAX_JSON_DEPTH, type Message, maySend } from '@usher/protocol';
import { decodeHostFrame } from './host-frames.ts';
import { scanHostFrame } from './host-scan.ts';
import { payloadSlice } from './wire.ts';

/** A frame as it arrived, and what it says. */
export interface Inbound {
  /** The frame as received, forwarded unchanged when nothing in it changes (no re-encoding). */
  bytes: Buffer;
  message: Message;
  /** The payload's JSON on one line: sliced from the frame when possible, else serialized from `message`. */
  payloadJson: string;
  /** The frame can be forwarded as it came: only the envelope's known members and the payload's known fields, on one line. */
  verbatim: boolean;
  /** The payload's top-level keys the contract does not name, dropped before it goes on and into the log. */
  dropped: string[];
  /** `payloadJson`'s bytes in `bytes` (an ASCII frame), for the log to copy rather than encode again. */
  payloadBytes?: Buffer;
}

/**
 * A frame read, or why not: the error to send back, the request it names (`replyTo`), and for a
 * host's refused reply the request it meant to answer (`answers`), whose requester is told too.
 */
export type ReadFrame =
  | { ok: true; frame: Inbound /** A host's frame accepted by the scan: one a host may send. */; scanned: boolean }
  | { ok: false; code: ErrorCode; message: string; replyTo?: string; answers?: string };

/**
 * A host's frame under this size goes straight to the full decoder: the scan pays off on big
 * states, and would read a small frame (a `tool.result`) whole only to find that it is not one.
 */
const SCAN_FROM_BYTES = 1024;

/**
 * Reads one text frame (already within the size cap). Agents' frames are checked whole by the
 * contract's schemas; a host's big ones (`state.updated`, `snapshot.state`) as much as safety
 * needs, by one scan of the text that builds nothing (host-scan.ts); whatever the scan does not
 * accept goes to the full decoder, which decides. Nothing recursive runs before the depth is
 * known to be within {@link MAX_JSON_DEPTH}.
 */
export function readFrame(data: Buffer, fromHost: boolean): ReadFrame {
  const text = data.toString('utf8');
  const scanned = fromHost && data.length >= SCAN_FROM_BYTES ? scanHostFrame(text, MAX_JSON_DEPTH - 1) : null;
  if (scanned && maySend('host', scanned.message.type)) {
    const { payloadStart: start, payloadEnd: end } = scanned;
    const frame: Inbound = {
      bytes: data,
      message: scanned.message,
      payloadJson: text.slice(start, end),
      verbatim: true,
      dropped: [],
    };
    // A frame of as many bytes as characters is ASCII: the payload's characters are its bytes.
    if (data.length === text.length) frame.payloadBytes = data.subarray(start, end);
    return { ok: true, frame, scanned: true };
  }
  const decoded = fromHost ? decodeHostFrame(text) : decodeFrame(text);
  if (!decoded.ok) return decoded;
  const message = decoded.message;
  const slice = payloadSlice(text, decoded.raw, MAX_JSON_DEPTH - 1);
  // Agents' frames were scanned for depth whole; a host's payload is scanned here, in the pass
  // that slices it, before anything forwards or re-serializes it.
  if (!slice.ok && (slice.tooDeep || (fromHost && exceedsDepth(text)))) {
    return {
      ok: false,
      code: 'INVALID_MESSAGE',
      message: `frame nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels`,
    };
  }
  // A record is one line of the log: a payload the sender spread over lines is written again.
  const oneLine = slice.ok && !slice.json.includes('\n') && !slice.json.includes('\r');
  // A payload with fields the contract does not know goes on, and into the log, without them.
  const dropped = unknownKeys(decoded.raw.payload, message.payload);
  const known = dropped !== null && dropped.length === 0;
  const frame: Inbound = {
    bytes: data,
    message,
    payloadJson: oneLine && known && slice.ok ? slice.json : JSON.stringify(message.payload),
    verbatim: oneLine && known,
    dropped: dropped ?? [],
  };
  return { ok: true, frame, scanned: false };
}

/** What the log is given for a frame's payload `payloadJson`: the frame's own bytes when it is the frame's own text. */
export function loggedPayload(frame: Inbound, payloadJson: string): string | Buffer {
  return payloadJson === frame.payloadJson && frame.payloadBytes ? frame.payloadBytes : payloadJson;
}

/** The payload's keys as sent that the payload as read lacks (dropped), or null when it was not an object. */
function unknownKeys(raw: unknown, parsed: object): string[] | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const dropped: string[] = [];
  for (const key in raw) if (!Object.hasOwn(parsed, key)) dropped.push(key);
  return dropped;
}
