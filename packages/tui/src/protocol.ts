import {
  type RpcNotification,
  RpcNotificationSchema,
  type RpcRequest,
  RpcRequestSchema,
  type RpcResponse,
  RpcResponseSchema,
  SERVER_NOTIFICATIONS,
  type ServerMethod,
  type ServerNotification,
  type ServerNotificationParams,
  type ServerParams,
  type ServerResult,
} from '@usher/protocol/stdio';
import type { z } from 'zod';

/**
 * The client's view of the UI protocol (`specs/ui-protocol-stdio.ja.md`). The schemas are the
 * stdio contract's (`@usher/protocol/stdio`, one source of truth for both sides); this file adds
 * what only a client needs: telling a line's kind apart, and the answer a dismissed dialog gives.
 */

/** A notification the UI renders, with its validated params. */
export type RuntimeNotification = {
  [M in ServerNotification]: { method: M; params: ServerNotificationParams<M> };
}[ServerNotification];

/** A runtime→UI request waiting for the operator (spec §7). */
export type UiRequest = {
  [M in ServerMethod]: { method: M; params: ServerParams<M> };
}[ServerMethod];

export function isKnownNotification(method: string): method is ServerNotification {
  return Object.hasOwn(SERVER_NOTIFICATIONS, method);
}

/** One line from the runtime, told apart by its fields: a request has `method` and `id`, a notification only `method`. */
export function classifyMessage(
  value: unknown,
):
  | { kind: 'request'; message: RpcRequest }
  | { kind: 'notification'; message: RpcNotification }
  | { kind: 'response'; message: RpcResponse }
  | { kind: 'invalid'; error: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'invalid', error: 'a message must be a JSON object' };
  }
  if ('method' in value) {
    if ('id' in value) {
      const request = RpcRequestSchema.safeParse(value);
      return request.success
        ? { kind: 'request', message: request.data }
        : { kind: 'invalid', error: describeIssues(request.error) };
    }
    const notification = RpcNotificationSchema.safeParse(value);
    return notification.success
      ? { kind: 'notification', message: notification.data }
      : { kind: 'invalid', error: describeIssues(notification.error) };
  }
  const response = RpcResponseSchema.safeParse(value);
  return response.success
    ? { kind: 'response', message: response.data }
    : { kind: 'invalid', error: 'neither a request, a notification nor a response with result or error' };
}

/** What a dismissed dialog answers (spec §7): confirm → not ok, prompt → null, pick → nothing. */
export function dismissedAnswer<M extends ServerMethod>(method: M): ServerResult<M> {
  const answers: { [K in ServerMethod]: ServerResult<K> } = {
    'ui.confirm.request': { ok: false },
    'ui.prompt.request': { value: null },
    'ui.pick.request': { ids: [] },
  };
  return answers[method] as ServerResult<M>;
}

/** A zod error as one sentence: the first issue, with where it is. */
export function describeIssues(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const where = issue.path.map(String).join('.');
  return where ? `${where}: ${issue.message}` : issue.message;
}
