export { EVAL_DIR, EVAL_WORLD, type EvalCase, loadCases, loadWorld } from './cases.ts';
export { parseConstraint } from './notation.ts';
export {
  type CaseResult,
  contextOf,
  evaluate,
  evaluateWith,
  formatEvaluation,
  type Reader,
  totalsByKind,
} from './run.ts';
export { type Outcome, scoreKinds } from './score.ts';
