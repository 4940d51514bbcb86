import { z } from 'zod';
import { AgentEventSchema } from './events.ts';

/* The run model (ui-protocol-stdio §5): `run.start`, `run.cancel` and the runtime's notifications about a run. */

/** What the UI shares about where the operator works (§6.1); every field is optional and extra ones are kept. */
export const UiContextSchema = z.looseObject({
  cwd: z.string().optional(),
  workspace_root: z.string().optional(),
  active_file: z.looseObject({ path: z.string(), language_id: z.string().optional() }).optional(),
  selection: z
    .looseObject({
      path: z.string(),
      range: z.looseObject({
        start: z.looseObject({ line: z.number().int().nonnegative(), column: z.number().int().nonnegative() }),
        end: z.looseObject({ line: z.number().int().nonnegative(), column: z.number().int().nonnegative() }),
      }),
      selected_text: z.string().optional(),
    })
    .optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export type UiContext = z.infer<typeof UiContextSchema>;

/** A session id: letters, digits, `-` and `_` (it names the session's file). */
export const SessionIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be 1–128 letters, digits, "-" or "_"');

export const RunStartParamsSchema = z.looseObject({
  input: z.looseObject({
    type: z.literal('text'),
    text: z.string().trim().min(1, 'must not be empty'),
  }),
  /** Resume this session (it must exist); a new one is created when absent. */
  session_id: SessionIdSchema.optional(),
  ui_context: UiContextSchema.optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
});
export type RunStartParams = z.infer<typeof RunStartParamsSchema>;

/** `session_id` is an extension (DESIGN.md): the session the run belongs to, new or resumed. */
export const RunStartResultSchema = z.looseObject({ run_id: z.string(), session_id: z.string() });
export type RunStartResult = z.infer<typeof RunStartResultSchema>;

export const RunCancelParamsSchema = z.looseObject({ run_id: z.string().min(1), reason: z.string().optional() });
export type RunCancelParams = z.infer<typeof RunCancelParamsSchema>;

export const RunStatusSchema = z.enum(['running', 'awaiting_ui', 'completed', 'error', 'cancelled']);
export type RunStatus = z.infer<typeof RunStatusSchema>;
/** The statuses that end a run; exactly one of them is reported per run. */
export const TerminalRunStatusSchema = z.enum(['completed', 'error', 'cancelled']);
export type TerminalRunStatus = z.infer<typeof TerminalRunStatusSchema>;

/** `ok: true, status: "cancelled"` for an active run; `ok: false` with its terminal status for a finished one. */
export const RunCancelResultSchema = z.looseObject({
  ok: z.boolean(),
  status: z.enum(['running', 'completed', 'error', 'cancelled']).optional(),
});
export type RunCancelResult = z.infer<typeof RunCancelResultSchema>;

/**
 * `agent.event`: one AgentEvent of a run. `seq` counts 0, 1, 2 … without gaps per run; history
 * replay sends a run's input as `hidden_user_message` with `seq` -1.
 */
export const AgentEventNotifySchema = z.looseObject({
  run_id: z.string(),
  seq: z.number().int().min(-1),
  event: AgentEventSchema,
  meta: z.record(z.string(), z.unknown()).optional(),
});
export type AgentEventNotify = z.infer<typeof AgentEventNotifySchema>;

/** `run.status`: `running` first, `awaiting_ui` while a `ui.*` request waits, then one terminal status. */
export const RunStatusNotifySchema = z.looseObject({
  run_id: z.string(),
  status: RunStatusSchema,
  message: z.string().optional(),
});
export type RunStatusNotify = z.infer<typeof RunStatusNotifySchema>;

/** `run.context`: how much of the planner's context is left, at run start and after each step. */
export const RunContextNotifySchema = z.looseObject({
  run_id: z.string(),
  context_left_percent: z.number().min(0).max(100),
});
export type RunContextNotify = z.infer<typeof RunContextNotifySchema>;

/** `ui.context.update` (§6.1): the runtime stores it and answers `{ok: true}`. */
export const UiContextUpdateResultSchema = z.looseObject({ ok: z.literal(true) });
