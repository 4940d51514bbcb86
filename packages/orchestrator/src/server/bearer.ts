import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Why `token` cannot be a bearer token, or null when it can. RFC 6750 §2.1 makes a bearer token
 * one word (`b64token`, the token68 of RFC 9110 §11.2): `Authorization: Bearer <token>` ends at the
 * token, so one with a space (or a control character, or anything outside visible ASCII) could
 * never be presented, and every agent holding it would be refused. Any visible ASCII is read, a
 * little more than token68, as the header check reads it.
 */
export function bearerTokenProblem(token: string): string | null {
  if (token === '') return 'it is empty';
  if (/\s/.test(token)) return 'it has a space in it (a bearer token is one word: RFC 6750 §2.1)';
  if (!/^[\x21-\x7e]+$/.test(token)) return 'it has characters other than visible ASCII';
  return null;
}

/**
 * Checks an `Authorization` header against the token it must carry, in constant time whatever
 * the lengths (digests are compared). The scheme's name is read in any case, as HTTP's
 * authentication schemes are (RFC 9110 §11.1): `bearer`, `Bearer` and `BEARER` are the same.
 * Throws a RangeError for a token no header could carry ({@link bearerTokenProblem}).
 */
export function bearerCheck(token: string): (header: string | undefined) => boolean {
  const problem = bearerTokenProblem(token);
  if (problem) throw new RangeError(`not a usable bearer token: ${problem}`);
  const expected = digest(token);
  return (header) => {
    const given = /^bearer +(\S+) *$/i.exec(header ?? '')?.[1];
    return given !== undefined && timingSafeEqual(digest(given), expected);
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
