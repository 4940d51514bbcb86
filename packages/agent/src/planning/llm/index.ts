/** The LLM planner (spec §9, phase 3): see README.md in this folder. */
export {
  type AssistantMessage,
  type ChatMessage,
  chatCompletion,
  LlmError,
  type LlmErrorKind,
  listModels,
  type ToolCall,
  type ToolSpec,
} from './client.ts';
export { DEFAULT_LLM_TIMEOUT_MS, LLM_ENV, type LlmConfig, LlmConfigError, llmConfigFromEnv } from './config.ts';
export { createLlmPlanner, type LlmPlan, type LlmPlanner, type LlmPlannerOptions } from './llm-planner.ts';
export { SAY, SYSTEM_PROMPT } from './prompt.ts';
export { validateProposal } from './validate.ts';
