/**
 * The Usher agent runtime (specs/external-agent-runtime.md), as a pipeline of stages:
 * perception/ → preferences/ → planning/ → action/ → memory/, with runtime/ joining them to the relay.
 */
export * from './memory/index.ts';
export type { PerceivedContext } from './perception/perceive.ts';
export { type PlannerInput, planNext } from './planning/deterministic.ts';
export {
  createLlmPlanner,
  type ExternalCallRecord,
  type ExternalTool,
  type ExternalTools,
  type LlmConfig,
  LlmConfigError,
  listModels,
  llmConfigFromEnv,
  llmContextUse,
} from './planning/llm/index.ts';
export type {
  MistakeChoice,
  MistakeKind,
  MistakeRecord,
  MistakeScript,
  ScriptedMistake,
} from './planning/mistakes.ts';
export type { ActionOutcome, NavigationPlan } from './planning/plan.ts';
export {
  describeModel,
  EMPTY_MODEL,
  fromStory,
  type PreferenceContext,
  type PreferenceModel,
  type Understanding,
  updatePreferences,
} from './preferences/index.ts';
export { Agent } from './runtime/agent.ts';
export type {
  AgentActivity,
  AgentObserver,
  AgentOptions,
  AgentPhase,
  AgentResult,
  Instruction,
  InstructionResult,
  ObservedCall,
} from './runtime/agent-options.ts';
export { type AgentBehaviour, agentBehaviour, behaviourOf } from './runtime/behaviour.ts';
export { RelayClient, RelayRequestError } from './runtime/relay-client.ts';
