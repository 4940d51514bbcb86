import { Agent, createLlmPlanner, EpisodicLog, llmConfigFromEnv, RelayRequestError } from '@usher/agent';
import { loadScenarioFile } from '@usher/server';
import { stopSignal } from './signals.ts';

export interface AgentFlags {
  url: string;
  room: string;
  study: string;
  participant: string;
  mode: 'autopilot' | 'assist';
  goal?: string;
  scenario?: string;
  episodes: string;
  /** End the study session once the booking is made (the log is then complete and on disk). */
  endSession?: boolean;
  /** An agent's credential for a relay with access control (`--token`, or `USHER_TOKEN`). */
  token?: string;
}

/** Builds the agent the flags describe; its episodes go to `<episodes>/<agent session>.episodes.jsonl`. */
export function agentFromFlags(flags: AgentFlags, log: (line: string) => void): Agent {
  const story = flags.scenario ? loadScenarioFile(flags.scenario).story : undefined;
  // An OpenAI-compatible service, when USHER_LLM_* configure one; the deterministic planner otherwise.
  const llm = llmConfigFromEnv(process.env);
  if (llm)
    log(
      `agent: reading and planning with ${llm.model} at ${llm.baseUrl}, the rules and the deterministic planner as fallback`,
    );
  return new Agent({
    url: flags.url,
    room: flags.room,
    study: flags.study,
    participant: flags.participant,
    mode: flags.mode,
    ...(flags.goal && { goal: flags.goal }),
    ...(story && { story }),
    episodes: new EpisodicLog({ dir: flags.episodes }),
    endSessionWhenDone: flags.endSession ?? false,
    ...(flags.token && { token: flags.token }),
    ...(llm && { planner: createLlmPlanner(llm, undefined, { log }), reader: llm }),
    log,
  });
}

/** `usher agent`: runs until the booking is made, or until stopped (Ctrl-C). */
export async function runAgent(flags: AgentFlags): Promise<number> {
  const agent = agentFromFlags(flags, (line) => process.stderr.write(`${line}\n`));
  void stopSignal().then(() => agent.stop());
  console.log(`Usher agent (${flags.mode}) joining room "${flags.room}" at ${flags.url}`);
  try {
    const result = await agent.run();
    console.log(`agent ${result.status} after ${result.toolCalls} tool calls: ${result.message}`);
    return 0;
  } catch (err) {
    if (!(err instanceof RelayRequestError)) throw err;
    process.stderr.write(`usher agent: ${err.message}${err.wire ? ` (${err.code})` : ''}\n`);
    return 1;
  }
}
