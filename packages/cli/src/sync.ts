import { createLlmPlanner, llmConfigFromEnv } from '@usher/agent';
import { SYNC_PATH } from '@usher/protocol/sync';
import { HostRunEngine, SyncAgent } from '@usher/runtime';
import { InvalidArgumentError } from 'commander';
import { tokenFrom } from './orchestrator.ts';
import { stopSignal } from './signals.ts';

export interface SyncFlags {
  /** The orchestrator's endpoint, whole. */
  syncUrl: string;
  /** Falls back to USHER_SYNC_TOKEN. */
  syncToken?: string;
  /** The relay, where the host is. */
  url: string;
  room: string;
  study: string;
  participant: string;
  /** Folder of the agent's episode logs. */
  episodes?: string;
  /** Seconds a run may go without progress before it is stopped with an error. */
  runTimeout?: number;
}

/** The orchestrator's endpoint: a `ws://` or `wss://` URL, path included (it is dialed as given). */
export function parseSyncUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`expected a URL such as ws://127.0.0.1:8790${SYNC_PATH}`);
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:')
    throw new InvalidArgumentError('expected a ws:// or wss:// URL');
  return url.href;
}

/**
 * `usher runtime --sync-url …`: the agent dials the orchestrator and carries out each
 * `chat_message` on the host in `--room` through the relay at `--url`; runs until SIGINT or
 * SIGTERM, then ends what is in flight with `chat_response_error` before it closes.
 */
export async function runSync(flags: SyncFlags): Promise<number> {
  const token = tokenFrom(flags.syncToken, '--sync-token');
  if (token === null) return 2;
  const log = (line: string) => console.error(line);
  const llm = llmConfigFromEnv(process.env);
  if (llm) log(`runtime: planning with ${llm.model} at ${llm.baseUrl}, the deterministic planner as fallback`);
  const planner = llm ? createLlmPlanner(llm, undefined, { log }) : undefined;
  const engine = new HostRunEngine({
    url: flags.url,
    room: flags.room,
    study: flags.study,
    participant: flags.participant,
    episodesDir: flags.episodes ?? './logs/agent',
    ...(flags.runTimeout && { stallTimeoutMs: flags.runTimeout * 1000 }),
    ...(planner && { planner: () => planner }),
    log,
  });
  const agent = new SyncAgent({ url: flags.syncUrl, token, engine, log });
  agent.start();
  // Listening for the stop before saying it is ready: a supervisor may send it at once.
  const stopped = stopSignal();
  console.log(
    [
      `Usher runtime ${agent.agentId} dialing ${flags.syncUrl}`,
      `  runs on room "${flags.room}" through the relay at ${flags.url}`,
      'Press Ctrl-C to stop.',
    ].join('\n'),
  );
  await stopped;
  await agent.close();
  // A run stuck on a relay that does not answer must not keep the process from ending.
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([engine.close(), new Promise((resolve) => (timer = setTimeout(resolve, 5000)))]);
  clearTimeout(timer);
  console.log('Usher runtime stopped.');
  return 0;
}
