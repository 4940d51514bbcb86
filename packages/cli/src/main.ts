import { StartupError, VERSION } from '@usher/server';
import { Command, CommanderError, Option } from 'commander';
import { parseLabel, parseNonEmpty, parsePort, parseRoom } from './options.ts';
import { type ServeFlags, serve } from './serve.ts';

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
      new Option('--scenario <file>', 'scenario JSON file (default: the built-in scenario)').argParser(parseNonEmpty),
    )
    .addOption(
      new Option('--room <name>', 'room of the study page and the headless host')
        .default('default')
        .argParser(parseRoom),
    )
    .addOption(new Option('--study <id>', 'study id in the printed page URL').default('pilot-01').argParser(parseLabel))
    .addOption(
      new Option('--participant <id>', 'participant id in the printed page URL').default('P01').argParser(parseLabel),
    )
    .option('--headless-host', 'run the booking engine as the host of --room', false)
    .action((flags: ServeFlags) => {
      run = () => serve(flags);
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
    if (err instanceof StartupError) {
      process.stderr.write(`usher: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
