/** The LLM planner (spec §9, phase 3): see README.md in this folder. */
export {
  type AssistantMessage,
  type ChatCompletion,
  type ChatMessage,
  chatCompletion,
  chatCompletionWithUsage,
  LlmError,
  type LlmErrorKind,
  listModels,
  type ToolCall,
  type ToolSpec,
} from './client.ts';
export {
  DEFAULT_LLM_CONTEXT_TOKENS,
  DEFAULT_LLM_TIMEOUT_MS,
  LLM_ENV,
  type LlmConfig,
  LlmConfigError,
  llmConfigFromEnv,
} from './config.ts';
export {
  EXTERNAL_PREFIX,
  type ExternalCallRecord,
  type ExternalTool,
  type ExternalTools,
  externalName,
} from './external.ts';
export {
  createLlmPlanner,
  type LlmContextUse,
  type LlmPlan,
  type LlmPlanner,
  type LlmPlannerOptions,
  llmContextUse,
  MAX_EXTERNAL_ROUNDS,
} from './llm-planner.ts';
export { SAY, SYSTEM_PROMPT } from './prompt.ts';
export { validateProposal } from './validate.ts';
