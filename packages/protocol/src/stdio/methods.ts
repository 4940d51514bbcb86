import { z } from 'zod';
import {
  McpListParamsSchema,
  McpListResultSchema,
  ModelListParamsSchema,
  ModelListResultSchema,
  ModelSetParamsSchema,
  ModelSetResultSchema,
  SkillsListParamsSchema,
  SkillsListResultSchema,
} from './catalogs.ts';
import {
  AgentEventNotifySchema,
  RunCancelParamsSchema,
  RunCancelResultSchema,
  RunContextNotifySchema,
  RunStartParamsSchema,
  RunStartResultSchema,
  RunStatusNotifySchema,
  UiContextSchema,
  UiContextUpdateResultSchema,
} from './runs.ts';
import {
  SessionHistoryParamsSchema,
  SessionHistoryResultSchema,
  SessionListParamsSchema,
  SessionListResultSchema,
} from './sessions.ts';
import {
  UiCapabilitiesSchema,
  UiConfirmRequestParamsSchema,
  UiConfirmResultSchema,
  UiPickRequestParamsSchema,
  UiPickResultSchema,
  UiPromptRequestParamsSchema,
  UiPromptResultSchema,
} from './ui.ts';

/**
 * The handshake (`initialize`) and the method maps both sides validate against: which requests
 * each side sends, with their params and result schemas, and the runtime's notifications.
 */

export const ServerCapabilitiesSchema = z.looseObject({
  supports_run_cancel: z.boolean().optional(),
  supports_ui_requests: z.boolean().optional(),
  supports_mcp_list: z.boolean().optional(),
  supports_skills_list: z.boolean().optional(),
});
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;

/** §4.1: the UI's first request. */
export const InitializeParamsSchema = z.looseObject({
  protocol_version: z.string().min(1),
  client: z.looseObject({ name: z.string(), version: z.string() }),
  ui_capabilities: UiCapabilitiesSchema.optional(),
});
export type InitializeParams = z.infer<typeof InitializeParamsSchema>;

export const InitializeResultSchema = z.looseObject({
  protocol_version: z.string(),
  server: z.looseObject({ name: z.string(), version: z.string() }),
  server_capabilities: ServerCapabilitiesSchema.optional(),
});
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

/** Requests the UI sends and the runtime answers: method → params and result schemas. */
export const CLIENT_REQUESTS = {
  initialize: { params: InitializeParamsSchema, result: InitializeResultSchema },
  'run.start': { params: RunStartParamsSchema, result: RunStartResultSchema },
  'run.cancel': { params: RunCancelParamsSchema, result: RunCancelResultSchema },
  'session.list': { params: SessionListParamsSchema, result: SessionListResultSchema },
  'session.history': { params: SessionHistoryParamsSchema, result: SessionHistoryResultSchema },
  'model.list': { params: ModelListParamsSchema, result: ModelListResultSchema },
  'model.set': { params: ModelSetParamsSchema, result: ModelSetResultSchema },
  'mcp.list': { params: McpListParamsSchema, result: McpListResultSchema },
  'skills.list': { params: SkillsListParamsSchema, result: SkillsListResultSchema },
  'ui.context.update': { params: UiContextSchema, result: UiContextUpdateResultSchema },
} as const;
export type ClientMethod = keyof typeof CLIENT_REQUESTS;
export type ClientParams<M extends ClientMethod> = z.infer<(typeof CLIENT_REQUESTS)[M]['params']>;
export type ClientResult<M extends ClientMethod> = z.infer<(typeof CLIENT_REQUESTS)[M]['result']>;

/** Notifications the runtime sends: method → params schema. */
export const SERVER_NOTIFICATIONS = {
  'agent.event': AgentEventNotifySchema,
  'run.status': RunStatusNotifySchema,
  'run.context': RunContextNotifySchema,
} as const;
export type ServerNotification = keyof typeof SERVER_NOTIFICATIONS;
export type ServerNotificationParams<M extends ServerNotification> = z.infer<(typeof SERVER_NOTIFICATIONS)[M]>;

/** Requests the runtime sends and the UI answers: method → params and result schemas. */
export const SERVER_REQUESTS = {
  'ui.confirm.request': { params: UiConfirmRequestParamsSchema, result: UiConfirmResultSchema },
  'ui.prompt.request': { params: UiPromptRequestParamsSchema, result: UiPromptResultSchema },
  'ui.pick.request': { params: UiPickRequestParamsSchema, result: UiPickResultSchema },
} as const;
export type ServerMethod = keyof typeof SERVER_REQUESTS;
export type ServerParams<M extends ServerMethod> = z.infer<(typeof SERVER_REQUESTS)[M]['params']>;
export type ServerResult<M extends ServerMethod> = z.infer<(typeof SERVER_REQUESTS)[M]['result']>;

export function isClientMethod(method: string): method is ClientMethod {
  return Object.hasOwn(CLIENT_REQUESTS, method);
}
