import { RoomIdSchema } from '@usher/protocol';
import { checkFrameSource, TrustedProxies } from '@usher/relay';
import { InvalidArgumentError } from 'commander';

/** Commander parsers for flag values: each refuses a bad value with a sentence saying what is expected. */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || !Number.isInteger(port) || port > 65535) {
    throw new InvalidArgumentError('expected a port number from 0 to 65535 (0 picks a free port)');
  }
  return port;
}

/** `--agent-threads`: a whole number of worker threads from 0 (the server's own thread) to 64. */
export function parseThreads(value: string): number {
  if (!/^\d{1,2}$/.test(value) || Number(value) > 64) {
    throw new InvalidArgumentError('expected a whole number of threads from 0 to 64');
  }
  return Number(value);
}

export function parseRoom(value: string): string {
  const room = RoomIdSchema.safeParse(value);
  if (!room.success) throw new InvalidArgumentError(room.error.issues[0]?.message ?? 'not a room name');
  return room.data;
}

export function parseNonEmpty(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('expected a value');
  return value;
}

/** A study or participant id: 1–128 letters, digits, dots, dashes or underscores (they go into a URL). */
export function parseLabel(value: string): string {
  if (!/^[\w.-]{1,128}$/.test(value)) throw new InvalidArgumentError('expected 1–128 letters, digits, ".", "-" or "_"');
  return value;
}

/** A relay address: `ws://`, `wss://` (or `http(s)://`) with a host. */
export function parseRelayUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('expected a URL such as ws://127.0.0.1:8787');
  }
  if (!['ws:', 'wss:', 'http:', 'https:'].includes(url.protocol))
    throw new InvalidArgumentError('expected a ws:// or wss:// URL');
  return url.origin.replace(/^http/, 'ws');
}

/** A reverse proxy for `--trust-proxy`: an address, a CIDR range, or `loopback`. */
export function parseTrustedProxy(value: string, previous: string[] = []): string[] {
  try {
    new TrustedProxies([value]);
  } catch (err) {
    throw new InvalidArgumentError(`expected the address of a reverse proxy: ${(err as Error).message}`);
  }
  return [...previous, value];
}

/** A site for `--frame-ancestors`: `https://host[:port]` or `https://*.host`. */
export function parseFrameAncestor(value: string, previous: string[] = []): string[] {
  try {
    return [...previous, checkFrameSource(value)];
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

/** An origin for `--allow-origin`: `https://host[:port]`, or `*` for any. */
export function parseOrigin(value: string, previous: string[] = []): string[] {
  if (value === '*') return [...previous, value];
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('expected an origin such as https://study.example.org, or *');
  }
  if (url.origin === 'null' || url.origin !== value.replace(/\/$/, '')) {
    throw new InvalidArgumentError(`expected an origin (scheme, host and port only), such as ${url.origin}`);
  }
  return [...previous, url.origin];
}
