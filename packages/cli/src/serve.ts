import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defaultScenario } from '@usher/booking';
import { loadScenarioFile, startServer } from '@usher/server';
import { agentFromFlags } from './agent.ts';

export interface ServeFlags {
  port: number;
  bind: string;
  logs: string;
  scenario?: string;
  room: string;
  study: string;
  participant: string;
  headlessHost: boolean;
  /** Run an agent in this process too (it reaches the relay over a WebSocket like any other). */
  agent?: 'autopilot' | 'assist';
}

/** The web host's built assets (`npm run build` makes them). */
const WEB_ROOT = join(dirname(createRequire(import.meta.url).resolve('@usher/web/package.json')), 'dist');

/** `usher serve`: runs until SIGINT or SIGTERM, then closes every study log cleanly. */
export async function serve(flags: ServeFlags): Promise<number> {
  const scenario = flags.scenario ? loadScenarioFile(flags.scenario) : defaultScenario();
  const server = await startServer({
    port: flags.port,
    bind: flags.bind,
    logsDir: flags.logs,
    scenario,
    room: flags.room,
    headlessHost: flags.headlessHost,
    webRoot: WEB_ROOT,
  });
  const page = new URL(server.url);
  page.search = new URLSearchParams({
    room: flags.room,
    study: flags.study,
    participant: flags.participant,
  }).toString();
  const lines = [
    `Usher relay listening on ${server.url}`,
    `  study page          ${page.href}`,
    `  agents connect to   ${server.agentUrl}`,
    `  study logs go to    ${flags.logs}`,
  ];
  if (server.headlessHost) {
    const api = `${server.url}/api/rooms/${flags.room}/participant`;
    lines.push(
      `  headless host in room "${flags.room}", scenario "${scenario.name}"`,
      `  participant API     GET ${api}/view · POST ${api}/message · POST ${api}/action`,
    );
  }
  const agent = flags.agent
    ? agentFromFlags(
        {
          url: server.url,
          room: flags.room,
          study: flags.study,
          participant: flags.participant,
          mode: flags.agent,
          ...(flags.scenario && { scenario: flags.scenario }),
          episodes: './logs/agent',
        },
        (line) => console.error(line),
      )
    : null;
  if (agent) lines.push(`  agent               ${flags.agent}, waiting for the page to open`);
  lines.push('Press Ctrl-C to stop.');
  console.log(lines.join('\n'));
  agent
    ?.run()
    .then((result) => console.log(`agent ${result.status} after ${result.toolCalls} tool calls: ${result.message}`))
    .catch((err: Error) => console.error(`agent stopped: ${err.message}`));

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  agent?.stop();
  await server.close();
  console.log('Usher relay stopped; open study logs were closed.');
  return 0;
}
