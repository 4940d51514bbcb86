import { z } from 'zod';

/*
 * The wire envelope of the stdio protocol (ui-protocol-stdio §3): JSON-RPC 2.0, one object per
 * NDJSON line. Envelopes are loose objects: fields this version does not know are tolerated.
 */

/** A request id. The spec uses strings; JSON-RPC 2.0 also allows numbers, so both are accepted. */
export const RpcIdSchema = z.union([z.string(), z.number()]);
export type RpcId = z.infer<typeof RpcIdSchema>;

/** JSON-RPC params: this protocol's params are always objects (positional arrays are refused). */
const ParamsSchema = z.unknown().optional();

/** A request: it carries an `id` and gets exactly one response with that id. */
export const RpcRequestSchema = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: RpcIdSchema,
  method: z.string(),
  params: ParamsSchema,
});
export type RpcRequest = z.infer<typeof RpcRequestSchema>;

/** A notification: no `id`, no response. */
export const RpcNotificationSchema = z.looseObject({
  jsonrpc: z.literal('2.0'),
  method: z.string(),
  params: ParamsSchema,
});
export type RpcNotification = z.infer<typeof RpcNotificationSchema>;

export const RpcErrorObjectSchema = z.looseObject({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type RpcErrorObject = z.infer<typeof RpcErrorObjectSchema>;

/** A response: `result` or `error`; the id is null only for an error about a line with no usable id. */
export const RpcResponseSchema = z.union([
  z.looseObject({ jsonrpc: z.literal('2.0'), id: RpcIdSchema, result: z.unknown() }),
  z.looseObject({ jsonrpc: z.literal('2.0'), id: RpcIdSchema.nullable(), error: RpcErrorObjectSchema }),
]);
export type RpcResponse = z.infer<typeof RpcResponseSchema>;

/** Any line on the wire, in either direction. */
export const RpcMessageSchema = z.union([RpcRequestSchema, RpcNotificationSchema, RpcResponseSchema]);
export type RpcMessage = z.infer<typeof RpcMessageSchema>;

/**
 * The error codes (spec §9 and JSON-RPC 2.0). `UserCancelled` is what a UI answers to a
 * `ui.*.request` the person dismissed; the runtime treats it as "no".
 */
export const RpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  Busy: -32001,
  RunNotFound: -32002,
  UserCancelled: -32003,
} as const;
export type RpcErrorCodeName = keyof typeof RpcErrorCode;

/** The version of this protocol the runtime speaks (`initialize`'s `protocol_version`). */
export const PROTOCOL_VERSION = '0';
