import { join } from 'node:path';
import { Capabilities, ExperimenterNameSchema, loadSecret, SecretError } from '@usher/relay';
import { StartupError } from '@usher/server';
import { InvalidArgumentError } from 'commander';

export interface TokenFlags {
  kind: 'host' | 'agent' | 'experimenter';
  room?: string;
  /** Which experimenter: the study log names them for what they do from the console. */
  name?: string;
  days: number;
  data: string;
}

/** `--name`: an experimenter's name as a credential may carry it. */
export function parseName(value: string): string {
  const name = ExperimenterNameSchema.safeParse(value);
  if (!name.success) throw new InvalidArgumentError('expected 1–64 letters, digits, spaces or . _ @ -');
  return name.data;
}

/** `--days`: how long a credential is valid, 1 to 3650 days. */
export function parseDays(value: string): number {
  const days = Number(value);
  if (!/^\d+$/.test(value) || days < 1 || days > 3650) throw new InvalidArgumentError('expected 1 to 3650 days');
  return days;
}

/**
 * `usher token`: prints a credential signed with the secret `usher serve --data` uses (the same
 * folder, or `USHER_SECRET`), so a researcher can make study links and agent credentials
 * without the server's help.
 */
export async function issueToken(flags: TokenFlags): Promise<number> {
  if (flags.kind === 'host' && !flags.room)
    throw new StartupError('a host credential is for one room: add --room NAME');
  if (flags.name !== undefined && flags.kind !== 'experimenter')
    throw new StartupError("--name names an experimenter; it is not part of a host's or an agent's credential");
  let secret: Uint8Array;
  try {
    secret = loadSecret(join(flags.data, 'server.secret')).secret;
  } catch (err) {
    if (err instanceof SecretError) throw new StartupError(err.message);
    throw err;
  }
  const capabilities = new Capabilities(secret);
  const capability =
    flags.kind === 'host'
      ? { kind: 'host' as const, room: flags.room as string }
      : flags.kind === 'experimenter'
        ? { kind: 'experimenter' as const, ...(flags.name && { name: flags.name }) }
        : { kind: flags.kind };
  console.log(await capabilities.issue(capability, flags.days));
  return 0;
}
