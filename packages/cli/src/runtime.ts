import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { llmConfigFromEnv } from '@usher/agent';
import {
  HostRunEngine,
  loadMcpConfig,
  McpRegistry,
  PlannerChoice,
  SessionStore,
  SkillCatalog,
  StdioRuntime,
} from '@usher/runtime';
import { StartupError, VERSION } from '@usher/server';
import { InvalidArgumentError } from 'commander';
import { parseNonEmpty } from './options.ts';
import { stopSignal } from './signals.ts';

/** The flags of `usher runtime --stdio` (the relay flags are shared with the other modes). */
export interface StdioFlags {
  url: string;
  room: string;
  study: string;
  participant: string;
  /** Folder of the session files. */
  sessions: string;
  /** More skills folders, after the user's. */
  skills?: string[];
  /** How long a question to the UI waits, in milliseconds. */
  uiTimeout: number;
  /** Folder of the agent's episode logs. */
  episodes?: string;
  /** Seconds a run may go without progress before it is stopped with an error. */
  runTimeout?: number;
}

/** The longest delay a Node timer keeps; a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** `--ui-timeout`: a whole number of milliseconds, at least 1 and at most 2147483647 (about 24 days). */
export function parseMilliseconds(value: string): number {
  const ms = Number(value);
  if (!/^\d+$/.test(value) || ms < 1 || ms > MAX_TIMER_MS) {
    throw new InvalidArgumentError(`expected a whole number of milliseconds, from 1 to ${MAX_TIMER_MS}`);
  }
  return ms;
}

/** `--skills <dir…>`: collects every folder given. */
export function collectDirs(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), parseNonEmpty(value)];
}

/** Where the user's config lives: `$USHER_CONFIG_HOME`, else `~/.config/usher`. */
export function configHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.USHER_CONFIG_HOME?.trim() ? resolve(env.USHER_CONFIG_HOME) : join(homedir(), '.config', 'usher');
}

/**
 * `usher runtime --stdio`: JSON-RPC 2.0 over NDJSON on stdin and stdout for a terminal UI
 * (ui-protocol-stdio). stdout carries protocol lines only; everything else goes to stderr. Runs
 * until stdin ends or a SIGINT/SIGTERM, then cancels the active run and closes what it opened.
 */
export async function runStdio(flags: StdioFlags): Promise<number> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  // Whatever a dependency prints must not land among the protocol lines.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  // Node's console.dir and console.dirxml write to stdout without going through console.log.
  console.dir = console.error;
  console.dirxml = console.error;
  const llm = llmConfigFromEnv(process.env);
  const home = configHome();
  const cwd = process.cwd();
  let sessions: SessionStore;
  try {
    sessions = new SessionStore(resolve(flags.sessions), log);
  } catch (err) {
    throw new StartupError(`cannot use the sessions folder ${flags.sessions}: ${(err as Error).message}`);
  }
  const mcp = new McpRegistry({
    config: loadMcpConfig({ project: join(cwd, '.usher', 'mcp.json'), global: join(home, 'mcp.json') }),
    client: { name: 'usher-runtime', version: VERSION },
    log,
  });
  // An LLM planner chosen with model.set may call the tools of the MCP servers that are ready.
  const planners = new PlannerChoice(llm, log, { mcp });
  for (const error of mcp.errors) log(`mcp: ${error.path}: ${error.message}`);
  void mcp.start();
  const skills = new SkillCatalog({
    userFolders: [
      { dir: join(home, 'skills'), scope: 'user', required: false },
      ...(flags.skills ?? []).map((dir) => ({ dir: resolve(dir), scope: 'user' as const, required: true })),
    ],
  });
  const engine = new HostRunEngine({
    url: flags.url,
    room: flags.room,
    study: flags.study,
    participant: flags.participant,
    planner: () => planners.planner(),
    episodesDir: flags.episodes ?? null,
    ...(flags.runTimeout && { stallTimeoutMs: flags.runTimeout * 1000 }),
    log,
  });
  const runtime = new StdioRuntime({
    input: process.stdin,
    output: process.stdout,
    engine,
    sessions,
    planners,
    mcp,
    skills,
    version: VERSION,
    cwd,
    uiTimeoutMs: flags.uiTimeout,
    log,
  });
  log(`usher runtime: stdio on room "${flags.room}" through the relay at ${flags.url}; sessions in ${sessions.dir}`);
  const signalled = stopSignal().then(() => 'the runtime was stopped');
  try {
    const why = await Promise.race([runtime.serve().then(() => null), signalled]);
    if (why) await runtime.stop(why);
  } finally {
    await engine.close();
    await mcp.close();
    sessions.close();
    process.stdin.destroy();
  }
  return 0;
}
