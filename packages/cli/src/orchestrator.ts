import { OrchestratorStartupError, startOrchestrator } from '@usher/orchestrator';
import { InvalidArgumentError } from 'commander';
import { stopSignal } from './signals.ts';

export interface OrchestratorFlags {
  port: number;
  bind: string;
  /** Falls back to USHER_SYNC_TOKEN. */
  token?: string;
  /** The HTTP API's bearer token (or USHER_API_TOKEN); the agents' token when neither is given. */
  apiToken?: string;
  data: string;
  /** Seconds an interaction may wait on a disconnected agent before it ends in error. */
  agentTimeout: number;
}

/** A bearer token: printable ASCII without spaces, so it fits an HTTP header as given. */
export function parseToken(value: string): string {
  if (!/^[\x21-\x7e]{1,512}$/.test(value)) {
    throw new InvalidArgumentError('expected 1–512 printable characters without spaces');
  }
  return value;
}

/** Whole seconds from 1 to one day. */
export function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (!/^\d+$/.test(value) || seconds < 1 || seconds > 86_400) {
    throw new InvalidArgumentError('expected a number of seconds from 1 to 86400');
  }
  return seconds;
}

/** The token from the flag or USHER_SYNC_TOKEN; null (after saying so) when neither is a valid token. */
export function tokenFrom(flag: string | undefined, flagName: string): string | null {
  if (flag !== undefined) return flag;
  const env = process.env.USHER_SYNC_TOKEN;
  if (env === undefined || env === '') {
    process.stderr.write(`usher: a token is required: pass ${flagName} <token> or set USHER_SYNC_TOKEN\n`);
    return null;
  }
  try {
    return parseToken(env);
  } catch (err) {
    process.stderr.write(`usher: USHER_SYNC_TOKEN is not a usable token: ${(err as Error).message}\n`);
    return null;
  }
}

/** `usher orchestrator`: the reference orchestrator; runs until SIGINT or SIGTERM. */
export async function runOrchestrator(flags: OrchestratorFlags): Promise<number> {
  const token = tokenFrom(flags.token, '--token');
  if (token === null) return 2;
  let orchestrator: Awaited<ReturnType<typeof startOrchestrator>>;
  try {
    orchestrator = await startOrchestrator({
      port: flags.port,
      bind: flags.bind,
      token,
      apiToken: flags.apiToken ?? token,
      dataDir: flags.data,
      agentTimeoutMs: flags.agentTimeout * 1000,
      log: (line) => console.error(`orchestrator: ${line}`),
    });
  } catch (err) {
    if (!(err instanceof OrchestratorStartupError)) throw err;
    process.stderr.write(`usher: ${err.message}\n`);
    return 1;
  }
  // The last line of defence: a fault nothing caught closes the journal (whole lines only, each
  // on disk before its change was acknowledged) and ends the process with a line saying why, so a
  // supervisor restarts it and the restart replays the journal as it is.
  const fatal = (err: unknown) => {
    console.error(`usher orchestrator: fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    try {
      orchestrator.abort();
    } catch (closing) {
      console.error(`usher orchestrator: closing the journal failed too: ${(closing as Error)?.message}`);
    }
    process.exit(70);
  };
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);
  const { records, tornBytes } = orchestrator.replayed;
  const api = `${orchestrator.url}/api/sessions`;
  // Listening for the stop before saying it is ready: a supervisor may send it at once.
  const stopped = stopSignal();
  console.log(
    [
      `Usher orchestrator listening on ${orchestrator.url}`,
      `  agents connect to   ${orchestrator.syncUrl} (Authorization: Bearer <token>)`,
      `  journal             ${flags.data}/journal.jsonl, ${records} records replayed` +
        (tornBytes > 0 ? `; a torn last line (${tornBytes} bytes) was dropped` : ''),
      `  HTTP API            POST ${api} · POST ${api}/:id/messages · GET ${api}/:id · GET ${orchestrator.url}/healthz`,
      `                      (Authorization: Bearer <${flags.apiToken ? 'API token' : 'token'}>)`,
      'Press Ctrl-C to stop.',
    ].join('\n'),
  );
  await stopped;
  await orchestrator.close();
  console.log('Usher orchestrator stopped; the journal is closed.');
  return 0;
}
