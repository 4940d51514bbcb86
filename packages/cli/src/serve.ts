import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { llmConfigFromEnv } from '@usher/agent';
import { defaultScenario } from '@usher/booking';
import { DEFAULT_LIMITS, loadSecret, type RelayLimits, SecretError } from '@usher/relay';
import { loadScenarioFile, StartupError, startServer } from '@usher/server';
import { loadStudyFile, type Participant, type Study, StudyFileError, StudyRegistry } from '@usher/study';
import { AgentSupervisor, AgentThreads } from '@usher/study-host';
import { InvalidArgumentError } from 'commander';
import { agentFromFlags } from './agent.ts';
import { LOOP_STATS_PREFIX, loopStatsInterval, startLoopStats } from './loop-stats.ts';
import { stopSignal } from './signals.ts';

export interface ServeFlags {
  port: number;
  bind: string;
  logs: string;
  /** Folder of the agents' episode logs; `agent/` beside the study logs' folder when not given. */
  episodes?: string;
  scenario?: string;
  room: string;
  /** The study id in the printed page URL (outside study mode). */
  studyId: string;
  participant: string;
  headlessHost: boolean;
  /** Serve the built pages' source maps (off: a `.map` is not found). */
  sourceMaps: boolean;
  /** Run an agent in this process too (it reaches the relay over a WebSocket like any other). */
  agent?: 'autopilot' | 'assist';
  /** `token` or `open`; by default open on a loopback address and token anywhere else. */
  access?: 'open' | 'token';
  /** Open mode on an address other than loopback: only with this deliberately named flag. */
  insecureOpenToEveryone: boolean;
  /** Folder of the server's own data (its secret). */
  data: string;
  allowOrigin: string[];
  /** Sites that may show the study pages in a frame. */
  frameAncestors: string[];
  /** Reverse proxies whose X-Forwarded-For the per-address limits believe. */
  trustProxy: string[];
  limit: Partial<RelayLimits>;
  /** Worker threads for a study's agents (0: the server's own thread); by default the cores less one, 1 to 4. */
  agentThreads?: number;
  /** A study file to run (study mode). */
  study?: string;
  /** Go on with a study whose agent changed since its first participant (recorded). */
  acceptAgentChange?: boolean;
}

/** The web host's built assets (`npm run build` makes them). */
const WEB_ROOT = join(dirname(createRequire(import.meta.url).resolve('@usher/web/package.json')), 'dist');

/** `--limit name=value`: one of {@link DEFAULT_LIMITS}, a whole number (milliseconds, bytes or a count). */
export function parseLimit(value: string, previous: Partial<RelayLimits> = {}): Partial<RelayLimits> {
  const match = /^(\w+)=(\d{1,15})$/.exec(value);
  const names = Object.keys(DEFAULT_LIMITS).join(', ');
  if (!match) throw new InvalidArgumentError(`expected name=number, e.g. maxRooms=200 (names: ${names})`);
  const [, name, number] = match as unknown as [string, string, string];
  if (!Object.hasOwn(DEFAULT_LIMITS, name)) throw new InvalidArgumentError(`unknown limit "${name}" (names: ${names})`);
  const n = Number(number);
  if (n < 1) throw new InvalidArgumentError(`${name} must be at least 1`);
  return { ...previous, [name]: n };
}

/**
 * Loads the study file for `--study`. A condition that plans with a language model needs one
 * configured (USHER_LLM_*): such a study is refused rather than run without it.
 */
function loadStudy(file: string): Study {
  let study: Study;
  try {
    study = loadStudyFile(file);
  } catch (err) {
    if (err instanceof StudyFileError) throw new StartupError(`the study file has problems:\n${err.message}`);
    throw new StartupError((err as Error).message);
  }
  const llm = study.conditions.find((c) => c.planner === 'llm');
  if (llm && !llmConfigFromEnv(process.env)) {
    throw new StartupError(
      `condition "${llm.id}" plans with a language model, but none is configured: set USHER_LLM_BASE_URL and USHER_LLM_MODEL (see the README)`,
    );
  }
  return study;
}

/** Whether an address to bind to is reachable from this machine only. */
export function isLoopback(bind: string): boolean {
  if (bind === 'localhost') return true;
  if (isIP(bind) === 4) return bind.startsWith('127.');
  return bind === '::1';
}

/** `usher serve`: runs until SIGINT or SIGTERM, then closes every study log cleanly. */
export async function serve(flags: ServeFlags): Promise<number> {
  const loopback = isLoopback(flags.bind);
  const access = flags.access ?? (loopback ? 'open' : 'token');
  if (access === 'open' && !loopback && !flags.insecureOpenToEveryone) {
    throw new StartupError(
      `refusing to serve ${flags.bind} without access control: anyone who reaches it could join any room, read every chat and end sessions. ` +
        'Use --access token (the default off loopback), or add --insecure-open-to-everyone if you really mean it.',
    );
  }
  let secret: Uint8Array | undefined;
  if (access === 'token') {
    try {
      secret = loadSecret(join(flags.data, 'server.secret')).secret;
    } catch (err) {
      if (err instanceof SecretError) throw new StartupError(err.message);
      throw err;
    }
  }
  const study = flags.study ? loadStudy(flags.study) : null;
  const registry = study ? new StudyRegistry(join(flags.data, 'registry.sqlite')) : null;
  // The agents beside participants start once the server listens (they reach it over the relay).
  let supervisor: AgentSupervisor | null = null;
  const hooks = {
    taskStarted: (participant: Participant, condition: Study['conditions'][number]) =>
      supervisor?.start(
        participant.room,
        participant.id,
        condition,
        participant.plan.tasks[participant.taskIndex]?.taskId,
      ),
    taskEnded: (participant: { room: string }) => supervisor?.stop(participant.room),
    roomIdle: (room: string) => supervisor?.idle(room),
  };
  const scenario = flags.scenario ? loadScenarioFile(flags.scenario) : defaultScenario();
  const server = await startServer({
    port: flags.port,
    bind: flags.bind,
    logsDir: flags.logs,
    scenario,
    room: flags.room,
    headlessHost: flags.headlessHost,
    webRoot: WEB_ROOT,
    sourceMaps: flags.sourceMaps,
    access,
    ...(secret && { secret }),
    allowOrigins: flags.allowOrigin,
    frameAncestors: flags.frameAncestors,
    trustProxy: flags.trustProxy,
    limits: flags.limit,
    ...(study &&
      registry && {
        study: {
          study,
          registry,
          hooks,
          registryPath: join(flags.data, 'registry.sqlite'),
          agents: { llm: llmConfigFromEnv(process.env), accept: flags.acceptAgentChange === true },
        },
      }),
  });
  // The last line of defence: a fault nothing caught ends every open study log with a record saying why.
  const fatal = (err: unknown) => {
    console.error(`usher serve: fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    server.abort(`fatal error: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(70);
  };
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);

  const capabilities = server.capabilities;
  const page = new URL(server.url);
  page.search = new URLSearchParams({
    room: flags.room,
    study: flags.studyId,
    participant: flags.participant,
    ...(capabilities && { token: await capabilities.issue({ kind: 'host', room: flags.room }) }),
  }).toString();
  const lines = [
    `Usher relay listening on ${server.url}`,
    ...(study ? [] : [`  study page          ${page.href}`]),
    `  agents connect to   ${server.agentUrl}`,
    `  study logs go to    ${flags.logs}`,
  ];
  if (capabilities) {
    lines.push(
      `  access control      on: credentials signed with ${join(flags.data, 'server.secret')} (or USHER_SECRET)`,
      `  agent credential    ${await capabilities.issue({ kind: 'agent' })}`,
      `  experimenter        ${await capabilities.issue({ kind: 'experimenter' })}`,
      '                      (more with `usher token host --room NAME`, `usher token agent`, `usher token experimenter`)',
    );
  } else {
    lines.push(
      `  access control      OFF (open mode): anyone who can reach ${flags.bind}:${server.port} can join any room,`,
      '                      read every chat and end sessions. Fine for one researcher on this machine;',
      '                      for a study online, use --access token.',
    );
  }
  const threadCount = flags.agentThreads ?? defaultAgentThreads();
  const agentThreads = study && threadCount > 0 ? new AgentThreads(threadCount, (line) => console.error(line)) : null;
  if (study && registry && server.study) {
    supervisor = new AgentSupervisor({
      // The server's own agents, through their own door with their own credential: no limit that
      // strangers can fill (maxSockets, maxConnections, the per-address ones) keeps them out.
      relayUrl: server.ownAgentsUrl,
      ...(capabilities && { token: await capabilities.issue({ kind: 'agent', own: true }, 3650) }),
      studyId: study.id,
      episodesDir: episodesDir(flags),
      llm: llmConfigFromEnv(process.env),
      log: (line) => console.error(line),
      threads: agentThreads,
      record: (room, type, payload) => server.relay.record(room, type, payload),
    });
    if (server.console) server.console.agents = supervisor;
    // Participants who were mid-task when the server stopped, their page still there or gone less
    // than idleSessionMs, get their task's session and agent back, as many as maxRooms allows; the
    // others when their page comes back.
    const { waiting, gone } = server.study.resumeAll((line) => console.error(line));
    if (gone > 0) {
      console.error(
        `study: ${gone} participants mid-task whose page had been gone idleSessionMs or more when the server stopped are resumed when their page comes back`,
      );
    }
    if (waiting > 0) {
      console.error(
        `study: ${waiting} participants mid-task were not resumed at start (no room free under maxRooms, or their log could not be opened); each is when their page comes back`,
      );
    }
    lines.push(
      `  study               "${study.id}" (${study.title}): ${study.tasks.length} tasks, ${study.conditions.length} conditions`,
      `  study link          ${server.url}/s/${study.id}   (add ?PROLIFIC_PID=… or ?participant=…)`,
      `  participants        ${join(flags.data, 'registry.sqlite')}`,
      `  console             ${server.url}/console${capabilities ? `?token=${await capabilities.issue({ kind: 'experimenter' })}` : ''}`,
      "                      (the experimenter's: watch participants live, step in as the agent, replay, export)",
    );
    const wizards = study.conditions.filter((c) => c.agent === 'wizard').map((c) => c.id);
    if (wizards.length > 0) {
      lines.push(
        `  wizard conditions   ${wizards.join(', ')}: participants there wait for you to act as the agent in the console`,
      );
    }
    for (const warning of study.warnings) lines.push(`  warning             ${warning.field}: ${warning.message}`);
  }
  if (server.headlessHost) {
    const api = `${server.url}/api/rooms/${flags.room}/participant`;
    lines.push(
      `  headless host in room "${flags.room}", scenario "${scenario.name}"`,
      `  participant API     GET ${api}/view · POST ${api}/message · POST ${api}/action`,
    );
  }
  const agentToken = capabilities ? await capabilities.issue({ kind: 'agent' }, 3650) : undefined;
  const agent = flags.agent
    ? agentFromFlags(
        {
          url: server.url,
          room: flags.room,
          study: flags.studyId,
          participant: flags.participant,
          mode: flags.agent,
          ...(flags.scenario && { scenario: flags.scenario }),
          episodes: episodesDir(flags),
          ...(agentToken && { token: agentToken }),
        },
        (line) => console.error(line),
      )
    : null;
  if (agent) lines.push(`  agent               ${flags.agent}, waiting for the page to open`);
  lines.push('Press Ctrl-C to stop.');
  // Listening for the stop before saying it is ready: a supervisor may send it at once.
  const stopped = stopSignal();
  console.log(lines.join('\n'));
  const loopStatsMs = loopStatsInterval(process.env);
  const stopLoopStats = loopStatsMs
    ? startLoopStats(loopStatsMs, (stats) => console.log(`${LOOP_STATS_PREFIX}${JSON.stringify(stats)}`))
    : null;
  agent
    ?.run()
    .then((result) => console.log(`agent ${result.status} after ${result.toolCalls} tool calls: ${result.message}`))
    .catch((err: Error) => console.error(`agent stopped: ${err.message}`));

  await stopped;
  stopLoopStats?.();
  agent?.stop();
  await supervisor?.stopAll();
  await server.close();
  await agentThreads?.close();
  registry?.close();
  console.log('Usher relay stopped; open study logs were closed.');
  return 0;
}

/** The cores less one (the server's own thread keeps one), from 1 to 4. */
export function defaultAgentThreads(): number {
  return Math.min(4, Math.max(1, availableParallelism() - 1));
}

/** Where the server's own agents write their episode logs: `--episodes`, else `agent/` beside the study logs (`./logs/agent` by default). */
export function episodesDir(flags: Pick<ServeFlags, 'logs' | 'episodes'>): string {
  return flags.episodes ?? join(dirname(resolve(flags.logs)), 'agent');
}
