import type { Role } from '@usher/protocol';
import { RoomIdSchema } from '@usher/protocol';
import { errors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';

/**
 * What a credential lets its holder do (README, "Security model"):
 * - `host`: be the host of one room (a participant's link) and use that room's participant API;
 * - `agent`: join any room as an agent (`own`: one of the server's own agents, a study's supervisor's,
 *   which the per-address connection limit does not count: they all come from the server's machine);
 * - `experimenter`: watch any room (observer), join as an agent (to step in), list rooms, read scenarios whole;
 * - `open`: everything, for a server in open mode (no credentials; loopback only unless forced).
 */
export type Capability =
  | { kind: 'host'; room: string }
  | { kind: 'agent'; own?: true }
  /** `name` says which experimenter, in the study log of what they do from the console. */
  | { kind: 'experimenter'; name?: string }
  | { kind: 'open' };

const ISSUER = 'usher';
const AUDIENCE = 'usher-relay';
const ALGORITHM = 'HS256';

/** How long an issued credential is valid unless its issuer says otherwise. */
export const DEFAULT_TOKEN_DAYS = 30;

/** Why a presented credential was refused. */
export class CredentialError extends Error {
  override readonly name = 'CredentialError';
}

/** An experimenter's name as a credential carries it: short, and safe in a log line. */
export const ExperimenterNameSchema = z
  .string()
  .regex(/^[\w.@ -]{1,64}$/, 'expected 1–64 letters, digits, spaces or ._@-');

/**
 * Issues and checks capabilities as JWTs (HS256, signed with the server's secret, via `jose`).
 * A token names its capability (`cap`) and, for a host, its room; it expires after `days`.
 */
export class Capabilities {
  constructor(
    private readonly secret: Uint8Array,
    private readonly now: () => Date = () => new Date(),
  ) {}

  issue(capability: Exclude<Capability, { kind: 'open' }>, days = DEFAULT_TOKEN_DAYS): Promise<string> {
    const claims =
      capability.kind === 'host'
        ? { cap: 'host', room: capability.room }
        : capability.kind === 'experimenter' && capability.name
          ? { cap: 'experimenter', name: capability.name }
          : capability.kind === 'agent' && capability.own
            ? { cap: 'agent', own: true }
            : { cap: capability.kind };
    const issuedAt = Math.floor(this.now().getTime() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: ALGORITHM })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + Math.round(days * 86_400))
      .sign(this.secret);
  }

  /** The capability a token grants; throws a {@link CredentialError} saying why when it grants none. */
  async verify(token: string): Promise<Exclude<Capability, { kind: 'open' }>> {
    if (token.length > 2048) throw new CredentialError('the credential is too long');
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.secret, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: [ALGORITHM],
        currentDate: this.now(),
      }));
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw new CredentialError('the credential has expired');
      throw new CredentialError('the credential is not valid for this server');
    }
    if (payload.cap === 'agent') return payload.own === true ? { kind: 'agent', own: true } : { kind: 'agent' };
    if (payload.cap === 'experimenter') {
      const name = ExperimenterNameSchema.safeParse(payload.name);
      return name.success ? { kind: 'experimenter', name: name.data } : { kind: 'experimenter' };
    }
    if (payload.cap === 'host') {
      const room = RoomIdSchema.safeParse(payload.room);
      if (room.success) return { kind: 'host', room: room.data };
    }
    throw new CredentialError('the credential grants nothing this server knows');
  }
}

/** Whether `capability` may join `room` in `role`; the reason when it may not. */
export function joinRefusal(capability: Capability, role: Role, room: string): string | null {
  switch (capability.kind) {
    case 'open':
      return null;
    case 'host':
      if (role !== 'host') return `a participant's credential joins only as the host of its room, not as ${role}`;
      return room === capability.room ? null : `this credential is for room "${capability.room}", not "${room}"`;
    case 'agent':
      return role === 'agent' ? null : `an agent's credential joins only as an agent, not as ${role}`;
    case 'experimenter':
      return role === 'host' ? "an experimenter's credential cannot be a room's host" : null;
  }
}

/** The credential of a request: `Authorization: Bearer <token>`, else the `token` query parameter (browsers' WebSockets cannot set headers). */
export function presentedToken(headers: { authorization?: string | undefined }, url: string): string | null {
  const auth = headers.authorization;
  // The scheme name is case-insensitive (RFC 7235).
  if (auth && /^bearer /i.test(auth)) return auth.slice(7).trim() || null;
  const query = new URL(url, 'http://relay').searchParams.get('token');
  return query && query.length > 0 ? query : null;
}
