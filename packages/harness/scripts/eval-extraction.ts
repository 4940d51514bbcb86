/**
 * Prints the preference extractor's accuracy on the evaluation set (packages/agent/eval/):
 * `npx tsx packages/harness/scripts/eval-extraction.ts [--failures] [--json] [--llm] [id fragments…]`.
 * With `--llm`, the LLM reader of the service USHER_LLM_* configure reads instead of the rules
 * (a message it cannot answer usefully is read by the rules, as in the agent).
 */
import { llmConfigFromEnv } from '@usher/agent';
import { evaluate, evaluateWith, formatEvaluation, loadCases, loadWorld } from '@usher/agent/eval';
import { readWithLlm } from '@usher/agent/llm-reader';

const args = process.argv.slice(2);
const only = args.filter((a) => !a.startsWith('--'));
const world = loadWorld();
const cases = loadCases(world).filter((c) => only.length === 0 || only.some((o) => c.id.includes(o)));
let results: ReturnType<typeof evaluate>;
if (args.includes('--llm')) {
  const config = llmConfigFromEnv(process.env);
  if (!config) {
    console.error('--llm needs a service: set USHER_LLM_BASE_URL and USHER_LLM_MODEL');
    process.exit(2);
  }
  let fallbacks = 0;
  results = await evaluateWith(cases, world, async (current, text, context) => {
    const read = await readWithLlm(config, current, text, context);
    if (read.fallbackReason) fallbacks += 1;
    return read;
  });
  console.log(`LLM reader ${config.model}: ${fallbacks} message(s) fell back to the rules`);
} else results = evaluate(cases, world);
if (args.includes('--json')) {
  console.log(
    JSON.stringify(
      results.map((r) => ({ ...r, kinds: Object.fromEntries(r.kinds) })),
      null,
      2,
    ),
  );
} else {
  console.log(formatEvaluation(results, args.includes('--failures')));
}
