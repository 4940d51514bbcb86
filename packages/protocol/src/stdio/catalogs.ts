import { z } from 'zod';

/* What the runtime can list and choose (ui-protocol-stdio §5.6–5.9): planners, MCP servers, skills. */

export const ModelListParamsSchema = z.looseObject({
  /** `usher` (the deterministic planner) or `openai` (an OpenAI-compatible service); default: the current one. */
  provider: z.string().min(1).optional(),
  include_details: z.boolean().optional(),
});
export type ModelListParams = z.infer<typeof ModelListParamsSchema>;

export const ModelListResultSchema = z.looseObject({
  provider: z.string(),
  models: z.array(z.string()),
  /** The model in use, when it is this provider's. */
  current: z.string().optional(),
  details: z
    .record(
      z.string(),
      z.looseObject({
        context_window: z.number().optional(),
        max_input_tokens: z.number().optional(),
        max_output_tokens: z.number().optional(),
      }),
    )
    .optional(),
  /** Set when the provider's service could not be asked (an extension); `models` then holds what is configured. */
  error: z.string().optional(),
});
export type ModelListResult = z.infer<typeof ModelListResultSchema>;

export const ModelSetParamsSchema = z.looseObject({
  name: z.string().min(1),
  /** When absent, the provider that offers `name`. */
  provider: z.string().min(1).optional(),
});
export type ModelSetParams = z.infer<typeof ModelSetParamsSchema>;

export const ModelSetResultSchema = z.looseObject({ provider: z.string(), name: z.string() });
export type ModelSetResult = z.infer<typeof ModelSetResultSchema>;

export const McpListParamsSchema = z.looseObject({
  /** `loaded` (default): the servers the runtime uses; `configured`: every configured one, disabled included. */
  scope: z.enum(['loaded', 'configured']).optional(),
});
export type McpListParams = z.infer<typeof McpListParamsSchema>;

export const McpServerStateSchema = z.enum(['disabled', 'connecting', 'ready', 'error']);
export type McpServerState = z.infer<typeof McpServerStateSchema>;

export const McpServerInfoSchema = z.looseObject({
  id: z.string(),
  transport: z.enum(['http', 'stdio']),
  source: z.enum(['project', 'global']).optional(),
  enabled: z.boolean(),
  state: McpServerStateSchema,
  tools: z.number().int().nonnegative().optional(),
  last_error: z.string().optional(),
  last_connected_at: z.string().optional(),
});
export type McpServerInfo = z.infer<typeof McpServerInfoSchema>;

/** A config file that could not be read, or an entry that could not be used. */
export const ConfigErrorSchema = z.looseObject({ path: z.string(), message: z.string() });
export type ConfigError = z.infer<typeof ConfigErrorSchema>;

export const McpListResultSchema = z.looseObject({
  servers: z.array(McpServerInfoSchema),
  /** Config files that could not be read (an extension). */
  errors: z.array(ConfigErrorSchema).optional(),
});
export type McpListResult = z.infer<typeof McpListResultSchema>;

export const SkillsListParamsSchema = z.looseObject({
  /** The repository whose `skills/` folder is listed; default: the runtime's working directory. */
  cwd: z.string().min(1).optional(),
  force_reload: z.boolean().optional(),
});
export type SkillsListParams = z.infer<typeof SkillsListParamsSchema>;

export const SkillInfoSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** The `SKILL.md` file. */
  path: z.string(),
  /** Its folder. */
  dir: z.string(),
  scope: z.enum(['repo', 'user']),
  mtime_ms: z.number(),
});
export type SkillInfo = z.infer<typeof SkillInfoSchema>;

export const SkillsListResultSchema = z.looseObject({
  skills: z.array(SkillInfoSchema),
  errors: z.array(ConfigErrorSchema),
  truncated: z.boolean(),
});
export type SkillsListResult = z.infer<typeof SkillsListResultSchema>;
