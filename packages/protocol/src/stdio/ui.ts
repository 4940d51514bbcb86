import { z } from 'zod';

/*
 * Runtime → UI requests (ui-protocol-stdio §7): confirm, prompt, pick. Each is sent only to a UI
 * that said it supports it, and a UI that dismisses one may answer with error -32003.
 */

/** What the UI can do (§4.2), from `initialize`. */
export const UiCapabilitiesSchema = z.looseObject({
  supports_confirm: z.boolean().optional(),
  supports_prompt: z.boolean().optional(),
  supports_pick: z.boolean().optional(),
  supports_markdown: z.boolean().optional(),
  supports_images: z.boolean().optional(),
});
export type UiCapabilities = z.infer<typeof UiCapabilitiesSchema>;

export const UiConfirmRequestParamsSchema = z.looseObject({
  run_id: z.string().optional(),
  title: z.string(),
  message: z.string(),
  confirm_label: z.string().optional(),
  cancel_label: z.string().optional(),
  danger_level: z.enum(['normal', 'danger']).optional(),
  allow_remember: z.boolean().optional(),
  allow_reason: z.boolean().optional(),
});
export type UiConfirmRequestParams = z.infer<typeof UiConfirmRequestParamsSchema>;

export const UiConfirmResultSchema = z.looseObject({
  ok: z.boolean(),
  remember: z.boolean().optional(),
  reason: z.string().optional(),
});
export type UiConfirmResult = z.infer<typeof UiConfirmResultSchema>;

export const UiPromptRequestParamsSchema = z.looseObject({
  run_id: z.string().optional(),
  title: z.string(),
  message: z.string(),
  default_value: z.string().optional(),
  multiline: z.boolean().optional(),
  secret: z.boolean().optional(),
});
export type UiPromptRequestParams = z.infer<typeof UiPromptRequestParamsSchema>;

/** `null` when the person would not say. */
export const UiPromptResultSchema = z.looseObject({ value: z.string().nullable() });
export type UiPromptResult = z.infer<typeof UiPromptResultSchema>;

export const UiPickItemSchema = z.looseObject({ id: z.string(), label: z.string(), detail: z.string().optional() });
export type UiPickItem = z.infer<typeof UiPickItemSchema>;

export const UiPickRequestParamsSchema = z.looseObject({
  run_id: z.string().optional(),
  title: z.string(),
  items: z.array(UiPickItemSchema).min(1),
  multi: z.boolean().optional(),
});
export type UiPickRequestParams = z.infer<typeof UiPickRequestParamsSchema>;

/** The picked ids; `[]` when the person picked nothing. */
export const UiPickResultSchema = z.looseObject({ ids: z.array(z.string()) });
export type UiPickResult = z.infer<typeof UiPickResultSchema>;
