import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Shortest secret accepted from the environment: 32 bytes of entropy, base64url-encoded. */
const MIN_SECRET_LENGTH = 43;

/** Why the server's secret could not be had; its message is for the person starting the server. */
export class SecretError extends Error {
  override readonly name = 'SecretError';
}

/**
 * The server's secret, which signs every capability it issues: `USHER_SECRET` when set, else the
 * file at `path`, created on first start with 32 random bytes, readable by its owner alone. A
 * changed secret invalidates every link and credential issued with the old one.
 */
export function loadSecret(path: string, env: NodeJS.ProcessEnv = process.env): { secret: Uint8Array; source: string } {
  const fromEnv = env.USHER_SECRET;
  if (fromEnv !== undefined) {
    if (fromEnv.length < MIN_SECRET_LENGTH) {
      throw new SecretError(
        `USHER_SECRET is ${fromEnv.length} characters; it needs at least ${MIN_SECRET_LENGTH} (e.g. \`openssl rand -base64 32\`)`,
      );
    }
    return { secret: new TextEncoder().encode(fromEnv), source: 'USHER_SECRET' };
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new SecretError(`cannot read the server secret ${path}: ${(err as Error).message}`);
    }
    text = randomBytes(32).toString('base64url');
    try {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, `${text}\n`, { mode: 0o600, flag: 'wx' });
      chmodSync(path, 0o600);
    } catch (writeErr) {
      if ((writeErr as NodeJS.ErrnoException).code === 'EEXIST') return loadSecret(path, env);
      throw new SecretError(`cannot create the server secret ${path}: ${(writeErr as Error).message}`);
    }
  }
  if (text.length < MIN_SECRET_LENGTH) {
    throw new SecretError(
      `the server secret ${path} is too short (${text.length} characters); delete it to make a new one`,
    );
  }
  return { secret: new TextEncoder().encode(text), source: path };
}
