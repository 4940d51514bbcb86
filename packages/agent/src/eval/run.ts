import type { ConstraintKind, Scenario } from '@usher/booking';
import {
  EMPTY_MODEL,
  type PreferenceContext,
  type PreferenceModel,
  type Understanding,
  updatePreferences,
} from '../preferences/index.ts';
import type { EvalCase } from './cases.ts';
import { type Outcome, scoreKinds } from './score.ts';

/*
 * Runs the extractor over the evaluation set and sums the outcomes per constraint kind and per
 * tag. The context is what the agent has on the movie stage: the study's day, the titles and
 * genres on screen (theaters are listed only later, so they are not given).
 */

export interface CaseResult {
  id: string;
  tags: string[];
  messages: string[];
  kinds: Map<ConstraintKind, Outcome>;
  model: PreferenceModel;
  /** The reader asked (or would ask) before booking: a message it could not read, or a doubt it reported. */
  asked: boolean;
  expectAsk: boolean;
  right: boolean;
}

export function contextOf(world: Scenario): PreferenceContext {
  return {
    today: world.today,
    knownTitles: world.movies.map((m) => m.title),
    knownGenres: [...new Set(world.movies.flatMap((m) => m.genres))],
  };
}

/** Reads each case's messages in turn, as the agent does, and scores the final model. */
export function evaluate(cases: readonly EvalCase[], world: Scenario): CaseResult[] {
  const context = contextOf(world);
  return cases.map((c) => {
    let model = EMPTY_MODEL;
    let asked = false;
    for (const text of c.messages) {
      const understanding = updatePreferences(model, text, context);
      model = understanding.model;
      asked ||= understanding.unparsed || (understanding.model.questions ?? []).length > 0;
    }
    return judge(c, world, model, asked);
  });
}

/** A reader other than the rules (the LLM reader): the understanding of one message. */
export type Reader = (current: PreferenceModel, text: string, context: PreferenceContext) => Promise<Understanding>;

/** As {@link evaluate}, with another reader, one case after another. */
export async function evaluateWith(cases: readonly EvalCase[], world: Scenario, reader: Reader): Promise<CaseResult[]> {
  const context = contextOf(world);
  const out: CaseResult[] = [];
  for (const c of cases) {
    let model = EMPTY_MODEL;
    let asked = false;
    for (const text of c.messages) {
      const understanding = await reader(model, text, context);
      model = understanding.model;
      asked ||= understanding.unparsed || (understanding.model.questions ?? []).length > 0;
    }
    out.push(judge(c, world, model, asked));
  }
  return out;
}

function judge(c: EvalCase, world: Scenario, model: PreferenceModel, asked: boolean): CaseResult {
  const kinds = scoreKinds(
    { hard: c.hard, soft: c.soft },
    model,
    world.theaters.map((t) => t.name),
  );
  const right = [...kinds.values()].every((o) => o === 'right');
  return { id: c.id, tags: c.tags, messages: c.messages, kinds, model, asked, expectAsk: c.ask, right };
}

export interface KindTotals {
  kind: ConstraintKind;
  right: number;
  missed: number;
  wrong: number;
  spurious: number;
}

export function totalsByKind(results: readonly CaseResult[]): KindTotals[] {
  const totals = new Map<ConstraintKind, KindTotals>();
  for (const r of results) {
    for (const [kind, outcome] of r.kinds) {
      const t = totals.get(kind) ?? { kind, right: 0, missed: 0, wrong: 0, spurious: 0 };
      t[outcome] += 1;
      totals.set(kind, t);
    }
  }
  return [...totals.values()];
}

const pct = (n: number, of: number) => (of === 0 ? '  –  ' : `${((100 * n) / of).toFixed(1).padStart(5)}%`);

/** The report: accuracy per kind, per tag, the cases read wholly right, and the asks. */
export function formatEvaluation(results: readonly CaseResult[], showFailures = false): string {
  const lines: string[] = [];
  lines.push('kind           cases  right  missed  wrong  spurious  accuracy');
  let allRight = 0;
  let allCount = 0;
  for (const t of totalsByKind(results)) {
    const n = t.right + t.missed + t.wrong + t.spurious;
    allRight += t.right;
    allCount += n;
    lines.push(
      `${t.kind.padEnd(14)} ${String(n).padStart(5)}  ${String(t.right).padStart(5)}  ${String(t.missed).padStart(6)}  ${String(t.wrong).padStart(5)}  ${String(t.spurious).padStart(8)}  ${pct(t.right, n)}`,
    );
  }
  lines.push(
    `${'all kinds'.padEnd(14)} ${String(allCount).padStart(5)}  ${String(allRight).padStart(5)}  ${' '.repeat(33)}${pct(allRight, allCount)}`,
  );
  lines.push('');
  const tags = [...new Set(results.flatMap((r) => r.tags))].sort();
  lines.push(`tag            cases  read wholly right`);
  for (const tag of tags) {
    const of = results.filter((r) => r.tags.includes(tag));
    const right = of.filter((r) => r.right).length;
    lines.push(
      `${tag.padEnd(14)} ${String(of.length).padStart(5)}  ${String(right).padStart(5)} ${pct(right, of.length)}`,
    );
  }
  lines.push('');
  const right = results.filter((r) => r.right).length;
  const shouldAsk = results.filter((r) => r.expectAsk);
  const askedRight = shouldAsk.filter((r) => r.asked).length;
  const askedNeedlessly = results.filter((r) => !r.expectAsk && r.asked).length;
  lines.push(`cases read wholly right: ${right}/${results.length} (${pct(right, results.length).trim()})`);
  lines.push(
    `asks: ${askedRight}/${shouldAsk.length} cases that need a question asked one; ${askedNeedlessly} asked without need`,
  );
  if (showFailures) {
    lines.push('');
    for (const r of results.filter((x) => !x.right)) {
      const bad = [...r.kinds].filter(([, o]) => o !== 'right').map(([k, o]) => `${k}:${o}`);
      lines.push(`${r.id}  ${bad.join(' ')}  « ${r.messages.join(' » « ')} »`);
      lines.push(`    read: ${JSON.stringify(r.model)}`);
    }
  }
  return lines.join('\n');
}
