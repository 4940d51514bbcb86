import { z } from 'zod';
import { RpcNotificationSchema, RpcRequestSchema, RpcResponseSchema } from './envelope.ts';
import { CLIENT_REQUESTS, SERVER_NOTIFICATIONS, SERVER_REQUESTS } from './methods.ts';

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input' });

const requests = (map: Record<string, { params: z.ZodType; result: z.ZodType }>) =>
  Object.fromEntries(
    Object.entries(map).map(([method, { params, result }]) => [method, { params: json(params), result: json(result) }]),
  );

/**
 * The stdio contract's JSON Schemas, published in `schemas/stdio/` for UIs written in other
 * languages: the JSON-RPC envelope, and per method its params (and result, for a request), by
 * which side sends it.
 */
export function stdioJsonSchemas(): Record<string, unknown> {
  return {
    'messages.json': {
      envelope: {
        request: json(RpcRequestSchema),
        notification: json(RpcNotificationSchema),
        response: json(RpcResponseSchema),
      },
      clientRequests: requests(CLIENT_REQUESTS),
      serverNotifications: Object.fromEntries(
        Object.entries(SERVER_NOTIFICATIONS).map(([method, params]) => [method, json(params)]),
      ),
      serverRequests: requests(SERVER_REQUESTS),
    },
  };
}
