/**
 * Prints the preference extractor's accuracy on the evaluation set (packages/agent/eval/):
 * `npx tsx packages/agent/scripts/eval-extraction.ts [--failures] [--json] [id fragments…]`.
 */
import { evaluate, formatEvaluation, loadCases, loadWorld } from '../src/eval/index.ts';

const args = process.argv.slice(2);
const only = args.filter((a) => !a.startsWith('--'));
const world = loadWorld();
const cases = loadCases(world).filter((c) => only.length === 0 || only.some((o) => c.id.includes(o)));
const results = evaluate(cases, world);
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
