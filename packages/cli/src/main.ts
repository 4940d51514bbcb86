import { LlmConfigError } from '@usher/agent';
import { StartupError, VERSION } from '@usher/server';
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { type AgentFlags, runAgent } from './agent.ts';
import { type ExportFlags, runExport } from './export.ts';
import {
  parseFrameAncestor,
  parseLabel,
  parseNonEmpty,
  parseOrigin,
  parsePort,
  parseRelayUrl,
  parseRoom,
  parseThreads,
  parseTrustedProxy,
} from './options.ts';
import { type OrchestratorFlags, parseSeconds, parseToken, runOrchestrator } from './orchestrator.ts';
import { MAX_PILOT_PARTICIPANTS, type PilotFlags, runPilot } from './pilot.ts';
import { collectDirs, parseMilliseconds, runStdio, type StdioFlags } from './runtime.ts';
import { parseLimit, type ServeFlags, serve } from './serve.ts';
import { checkStudy } from './study.ts';
import { parseSyncUrl, runSync, type SyncFlags } from './sync.ts';
import { issueToken, parseDays, parseName, type TokenFlags } from './token.ts';
import { parseRuntimeCmd, type TuiFlags, tui } from './tui.ts';

/** Exit codes: 0 done, 1 could not run (busy port, unreadable scenario …), 2 bad command line. */
export async function main(argv: string[]): Promise<number> {
  let run: (() => Promise<number>) | null = null;
  const program = new Command('usher')
    .description('Usher: studies in which an AI agent operates a live booking UI beside a participant.')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) })
    .showHelpAfterError('(add --help for usage)');

  program
    .command('serve')
    .description('Run the relay at /agent/ws with study logs and the HTTP API.')
    .addOption(new Option('--port <n>', 'port to listen on').default(8787).argParser(parsePort))
    .addOption(new Option('--bind <address>', 'address to listen on').default('127.0.0.1').argParser(parseNonEmpty))
    .addOption(new Option('--logs <dir>', 'folder for the study logs').default('./logs/study').argParser(parseNonEmpty))
    .addOption(
      new Option(
        '--episodes <dir>',
        "folder of the server's own agents' episode logs (default: agent/ beside the study logs' folder)",
      ).argParser(parseNonEmpty),
    )
    .addOption(
      new Option('--scenario <file>', 'scenario JSON file (default: the built-in scenario)').argParser(parseNonEmpty),
    )
    .addOption(
      new Option('--room <name>', 'room of the study page and the headless host')
        .default('default')
        .argParser(parseRoom),
    )
    .addOption(
      new Option('--study-id <id>', 'study id in the printed page URL (outside study mode)')
        .default('pilot-01')
        .argParser(parseLabel),
    )
    .addOption(
      new Option('--participant <id>', 'participant id in the printed page URL').default('P01').argParser(parseLabel),
    )
    .option('--headless-host', 'run the booking engine as the host of --room', false)
    .option('--source-maps', "serve the web pages' source maps (for debugging; not served without it)", false)
    .addOption(
      new Option('--agent <mode>', 'also run the agent in --room (autopilot or assist)').choices([
        'autopilot',
        'assist',
      ]),
    )
    .addOption(
      new Option(
        '--access <mode>',
        'token: every connection needs a credential; open: none does (default: open on loopback, token elsewhere)',
      ).choices(['open', 'token']),
    )
    .option('--insecure-open-to-everyone', 'allow --access open on an address other than loopback', false)
    .addOption(
      new Option('--data <dir>', "folder of the server's own data (its secret)")
        .default('./data')
        .argParser(parseNonEmpty),
    )
    .addOption(
      new Option('--allow-origin <origin>', 'a site whose pages may connect and post (repeatable; * for any)')
        .default([])
        .argParser(parseOrigin),
    )
    .addOption(
      new Option(
        '--frame-ancestors <site>',
        'a site that may show the study pages in a frame, e.g. a survey tool (repeatable; https://*.example.org for subdomains)',
      )
        .default([])
        .argParser(parseFrameAncestor),
    )
    .addOption(
      new Option(
        '--trust-proxy <address>',
        'a reverse proxy (address, CIDR range or loopback) whose X-Forwarded-For names the client for per-address limits (repeatable)',
      )
        .default([])
        .argParser(parseTrustedProxy),
    )
    .addOption(
      new Option('--study <file>', 'run a study file (participants open the printed study link)').argParser(
        parseNonEmpty,
      ),
    )
    .option(
      '--accept-agent-change',
      'go on with a study whose agent changed since its first participant (recorded in the registry and every study log)',
      false,
    )
    .addOption(
      new Option(
        '--agent-threads <n>',
        "worker threads that run a study's agents (0: in the server's own thread; default: the cores less one, 1 to 4)",
      ).argParser(parseThreads),
    )
    .addOption(
      new Option('--limit <name=value>', 'set a limit, e.g. maxRooms=200 (repeatable; see the server README)')
        .default({})
        .argParser(parseLimit),
    )
    .action((flags: ServeFlags) => {
      run = () => serve(flags);
    });

  program
    .command('study')
    .description('Work with study files (packages/study/README.md).')
    .command('check')
    .description('Check a study file (YAML or JSON): every problem with its line and field, or what the study holds.')
    .argument('<file>', 'the study file')
    .action((file: string) => {
      run = () => checkStudy(file);
    });

  program
    .command('export')
    .description(
      'Export a study for analysis: participant tasks, events, participants (CSV and Parquet) and the raw logs.',
    )
    .addOption(
      new Option('--study <file>', 'the study file (its tasks judge the bookings)')
        .makeOptionMandatory()
        .argParser(parseNonEmpty),
    )
    .addOption(
      new Option('--out <dir>', 'a new or empty folder for the export').makeOptionMandatory().argParser(parseNonEmpty),
    )
    .addOption(new Option('--logs <dir>', 'folder of the study logs').default('./logs/study').argParser(parseNonEmpty))
    .addOption(
      new Option('--data <dir>', "the server's data folder (its registry.sqlite)")
        .default('./data')
        .argParser(parseNonEmpty),
    )
    .action((flags: ExportFlags) => {
      run = () => runExport(flags);
    });

  program
    .command('pilot')
    .description(
      'Pilot a study with simulated participants on a server of its own (every condition, task and questionnaire), export it and report.',
    )
    .argument('<file>', 'the study file')
    .addOption(
      new Option('--participants <n>', `how many simulated participants (1–${MAX_PILOT_PARTICIPANTS})`)
        .default(20)
        .argParser(parseParticipants),
    )
    .addOption(
      new Option('--seed <seed>', 'seeds every choice: the same seed, the same pilot')
        .default('1')
        .argParser(parseLabel),
    )
    .addOption(
      new Option('--pace <pace>', "fast: agents and participants without pauses; real: the study's pace and a person's")
        .choices(['fast', 'real'])
        .default('fast'),
    )
    .addOption(
      new Option(
        '--dir <dir>',
        'a new folder for its data, logs and export (default ./pilot/<study>-seed-<seed>)',
      ).argParser(parseNonEmpty),
    )
    .action((file: string, flags: PilotFlags) => {
      run = () => runPilot(file, flags);
    });

  program
    .command('token')
    .description(
      "Print a credential signed with the server's secret: a participant's (host of a room), an agent's or an experimenter's.",
    )
    .addArgument(new Argument('<kind>', 'what the credential allows').choices(['host', 'agent', 'experimenter']))
    .addOption(new Option('--room <name>', 'the room of a host credential').argParser(parseRoom))
    .addOption(
      new Option('--name <name>', "an experimenter's name, which the study log gives for what they do").argParser(
        parseName,
      ),
    )
    .addOption(new Option('--days <n>', 'how long it is valid').default(30).argParser(parseDays))
    .addOption(
      new Option('--data <dir>', "folder of the server's own data (its secret)")
        .default('./data')
        .argParser(parseNonEmpty),
    )
    .action((kind: TokenFlags['kind'], flags: Omit<TokenFlags, 'kind'>) => {
      run = () => issueToken({ kind, ...flags });
    });

  program
    .command('agent')
    .description('Run the agent: it joins a room, starts the study session and books what the participant asks for.')
    .addOption(new Option('--url <url>', 'the relay').default('ws://127.0.0.1:8787').argParser(parseRelayUrl))
    .addOption(new Option('--room <name>', 'room to join').default('default').argParser(parseRoom))
    .addOption(new Option('--study <id>', 'study id of the session').default('pilot-01').argParser(parseLabel))
    .addOption(new Option('--participant <id>', 'participant id of the session').default('P01').argParser(parseLabel))
    .addOption(
      new Option('--mode <mode>', 'autopilot books; assist shows and explains')
        .choices(['autopilot', 'assist'])
        .default('autopilot'),
    )
    .addOption(new Option('--goal <text>', "what to book, in the participant's words").argParser(parseNonEmpty))
    .addOption(
      new Option('--scenario <file>', "a scenario whose story is the participant's wishes").argParser(parseNonEmpty),
    )
    .addOption(
      new Option('--episodes <dir>', "folder of the agent's episode logs")
        .default('./logs/agent')
        .argParser(parseNonEmpty),
    )
    .option('--end-session', 'end the study session once the booking is made', false)
    .addOption(
      new Option('--token <credential>', "an agent's credential, for a relay with access control")
        .env('USHER_TOKEN')
        .argParser(parseNonEmpty),
    )
    .action((flags: AgentFlags) => {
      run = () => runAgent(flags);
    });

  program
    .command('tui')
    .description("The operator's terminal UI: spawns the runtime and instructs the agent from the terminal.")
    .addOption(
      new Option('--runtime-cmd <command line>', 'the runtime to spawn (default: usher runtime --stdio)')
        .argParser(parseRuntimeCmd)
        .conflicts(['url', 'room']),
    )
    .addOption(new Option('--url <url>', 'the relay, passed to the default runtime').argParser(parseRelayUrl))
    .addOption(new Option('--room <name>', 'room, passed to the default runtime').argParser(parseRoom))
    .addOption(
      new Option(
        '--runtime-log <file>',
        "where the runtime's stderr goes (default: logs/tui/runtime-<time>.log)",
      ).argParser(parseNonEmpty),
    )
    .action((flags: TuiFlags) => {
      run = () => tui(flags);
    });

  program
    .command('runtime')
    .description(
      'Run the agent runtime: instructions come from a terminal UI (--stdio) or an orchestrator (--sync-url) and run on the host in a room.',
    )
    .addOption(new Option('--url <url>', 'the relay').default('ws://127.0.0.1:8787').argParser(parseRelayUrl))
    .addOption(
      new Option('--room <name>', 'room whose host the agent works on').default('default').argParser(parseRoom),
    )
    .addOption(new Option('--study <id>', 'study id of the sessions').default('pilot-01').argParser(parseLabel))
    .addOption(new Option('--participant <id>', 'participant id of the sessions').default('P01').argParser(parseLabel))
    .addOption(
      new Option('--stdio', 'stdio mode: JSON-RPC 2.0 over NDJSON on stdin/stdout for a terminal UI').conflicts(
        'syncUrl',
      ),
    )
    .addOption(
      new Option('--sessions <dir>', '--stdio: folder of the session files')
        .default('./logs/runtime')
        .argParser(parseNonEmpty),
    )
    .addOption(new Option('--skills <dir...>', '--stdio: more skills folders to list').argParser(collectDirs))
    .addOption(
      new Option('--ui-timeout <ms>', '--stdio: how long a question to the UI waits')
        .default(300_000)
        .argParser(parseMilliseconds),
    )
    .addOption(
      new Option(
        '--sync-url <url>',
        "external-sync mode: the orchestrator's WebSocket endpoint, dialed as given",
      ).argParser(parseSyncUrl),
    )
    .addOption(
      new Option('--sync-token <token>', 'bearer token for --sync-url (default: $USHER_SYNC_TOKEN)').argParser(
        parseToken,
      ),
    )
    .addOption(
      new Option('--episodes <dir>', "folder of the agent's episode logs")
        .default('./logs/agent')
        .argParser(parseNonEmpty),
    )
    .addOption(
      new Option('--run-timeout <seconds>', 'a run that makes no progress this long is stopped with an error')
        .default(300)
        .argParser(parseSeconds),
    )
    .action((flags: Partial<SyncFlags> & StdioFlags & { stdio?: boolean }, command: Command) => {
      if (flags.stdio) {
        run = () => runStdio(flags);
        return;
      }
      if (flags.syncUrl === undefined) {
        command.error('usher runtime needs a mode: --stdio or --sync-url <url>', { exitCode: 2 });
      }
      run = () => runSync(flags as SyncFlags);
    });

  program
    .command('orchestrator')
    .description('Run the reference orchestrator: agents connect over external-sync; sessions over HTTP.')
    .addOption(new Option('--port <n>', 'port to listen on').default(8790).argParser(parsePort))
    .addOption(new Option('--bind <address>', 'address to listen on').default('127.0.0.1').argParser(parseNonEmpty))
    .addOption(
      new Option('--token <token>', 'bearer token agents must present (default: $USHER_SYNC_TOKEN)').argParser(
        parseToken,
      ),
    )
    .addOption(
      new Option('--api-token <token>', "bearer token of the HTTP API (default: the agents' token)")
        .env('USHER_API_TOKEN')
        .argParser(parseToken),
    )
    .addOption(
      new Option('--data <dir>', 'folder of the journal').default('./logs/orchestrator').argParser(parseNonEmpty),
    )
    .addOption(
      new Option('--agent-timeout <seconds>', 'how long an answer may wait on a disconnected agent')
        .default(60)
        .argParser(parseSeconds),
    )
    .action((flags: OrchestratorFlags) => {
      run = () => runOrchestrator(flags);
    });

  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    throw err;
  }
  if (!run) {
    program.outputHelp({ error: true });
    return 2;
  }
  try {
    return await (run as () => Promise<number>)();
  } catch (err) {
    if (err instanceof StartupError || err instanceof LlmConfigError) {
      process.stderr.write(`usher: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

/** `--participants`: a whole number from 1 to {@link MAX_PILOT_PARTICIPANTS}. */
function parseParticipants(value: string): number {
  const n = Number(value);
  if (!/^\d{1,7}$/.test(value) || n < 1 || n > MAX_PILOT_PARTICIPANTS) {
    throw new InvalidArgumentError(`expected a whole number from 1 to ${MAX_PILOT_PARTICIPANTS}`);
  }
  return n;
}
