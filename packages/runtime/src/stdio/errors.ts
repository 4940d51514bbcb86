import { RpcErrorCode } from '@usher/protocol/stdio';
import { JSONRPCErrorException } from 'json-rpc-2.0';
import type { z } from 'zod';

/**
 * An error the runtime answers a request with: a code of the protocol (spec §9, JSON-RPC 2.0)
 * and a message a person can act on. Handlers throw it; the JSON-RPC layer turns it into the
 * response's `error`.
 */
export class RpcError extends JSONRPCErrorException {
  override readonly name = 'RpcError';

  static invalidRequest(message: string): RpcError {
    return new RpcError(`Invalid request: ${message}`, RpcErrorCode.InvalidRequest);
  }

  static invalidParams(message: string): RpcError {
    return new RpcError(`Invalid params: ${message}`, RpcErrorCode.InvalidParams);
  }

  static busy(runId: string): RpcError {
    return new RpcError(`Busy: run ${runId} is still active (cancel it or wait for its end)`, RpcErrorCode.Busy, {
      run_id: runId,
    });
  }

  static runNotFound(runId: string): RpcError {
    return new RpcError(`Run not found: ${runId}`, RpcErrorCode.RunNotFound, { run_id: runId });
  }
}

/** `input.text: Too small …; session_id: …`: every issue, with where it is, on one line. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.map(String).join('.');
      return where ? `${where}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/** Parses a request's params with `schema`; absent params are an empty object; a bad value is `-32602`. */
export function parseParams<S extends z.ZodType>(schema: S, params: unknown): z.infer<S> {
  if (Array.isArray(params)) throw RpcError.invalidParams('params must be an object, not an array');
  const parsed = schema.safeParse(params ?? {});
  if (!parsed.success) throw RpcError.invalidParams(describeIssues(parsed.error));
  return parsed.data;
}

/** The message of any thrown value. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
