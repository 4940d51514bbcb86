import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Checks an `Authorization` header against the token it must carry, in constant time whatever
 * the lengths (digests are compared). The scheme's name is read in any case, as HTTP's
 * authentication schemes are (RFC 9110 §11.1): `bearer`, `Bearer` and `BEARER` are the same.
 */
export function bearerCheck(token: string): (header: string | undefined) => boolean {
  const expected = digest(token);
  return (header) => {
    const given = /^bearer +(\S+) *$/i.exec(header ?? '')?.[1];
    return given !== undefined && timingSafeEqual(digest(given), expected);
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
