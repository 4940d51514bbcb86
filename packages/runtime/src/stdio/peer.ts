import type { Readable, Writable } from 'node:stream';
import { exceedsDepth, MAX_JSON_DEPTH } from '@usher/protocol';
import {
  RpcErrorCode,
  type RpcErrorObject,
  RpcResponseSchema,
  SERVER_NOTIFICATIONS,
  SERVER_REQUESTS,
  type ServerMethod,
  type ServerNotification,
  type ServerNotificationParams,
  type ServerParams,
} from '@usher/protocol/stdio';
import {
  createJSONRPCErrorResponse,
  JSONRPCClient,
  JSONRPCErrorException,
  type JSONRPCID,
  type JSONRPCRequest,
  type JSONRPCResponse,
  JSONRPCServer,
} from 'json-rpc-2.0';
import { messageOf } from './errors.ts';
import { readLines } from './lines.ts';
import { LineWriter } from './writer.ts';

/** What a handler may do besides answering. */
export interface RequestContext {
  /** Runs `task` once the response has been written (a run's notifications follow `run.start`'s result). */
  afterResponse(task: () => void): void;
}

export type Handler = (params: unknown, context: RequestContext) => unknown;

/** How a request the runtime sent ended. */
export type PeerAnswer =
  | { kind: 'result'; result: unknown }
  | { kind: 'error'; error: RpcErrorObject }
  | { kind: 'timeout' }
  | { kind: 'withdrawn' };

export interface PeerOptions {
  input: Readable;
  output: Writable;
  /** A longer line is refused with -32600 and skipped. */
  maxLineBytes: number;
  log(line: string): void;
}

interface ServerContext {
  after: (() => void)[];
}

/**
 * One end of the stdio protocol (ui-protocol-stdio §2–3): NDJSON lines in, JSON-RPC 2.0 out.
 * Framing and envelope checks are done here, so every malformed line gets its exact error
 * (-32700 not JSON, -32600 not a request or a response); well-formed requests go to the
 * json-rpc-2.0 server (method table, -32601, thrown errors → responses) and responses to the
 * json-rpc-2.0 client (ids, timeouts) of the runtime's own requests.
 */
export class RpcPeer {
  private readonly writer: LineWriter;
  private readonly server: JSONRPCServer<ServerContext>;
  private readonly client: JSONRPCClient<void>;
  /** Ids of the runtime's requests still waiting for an answer; an answer to any other id is ignored. */
  private readonly pending = new Set<string>();
  private readonly timedOut = new Set<JSONRPCID>();
  private readonly withdrawn = new Set<JSONRPCID>();
  private nextId = 0;
  private inFlight = 0;
  private inputEnded = false;
  private readonly drained: (() => void)[] = [];
  /** Resolves when the input has ended and every request read from it has been answered. */
  readonly ended: Promise<void>;

  constructor(private readonly options: PeerOptions) {
    this.writer = new LineWriter(options.output, options.log);
    this.server = new JSONRPCServer<ServerContext>({
      errorListener: (message, data) => {
        if (!(data instanceof JSONRPCErrorException)) options.log(`stdio: ${message} ${messageOf(data)}`);
      },
    });
    this.server.mapErrorToJSONRPCErrorResponse = (id, error) =>
      error instanceof JSONRPCErrorException
        ? createJSONRPCErrorResponse(id, error.code, error.message, error.data)
        : createJSONRPCErrorResponse(id, RpcErrorCode.InternalError, `Internal error: ${messageOf(error)}`);
    this.server.handleMethodNotFound = async (request) => {
      if (request.id === undefined) {
        options.log(`stdio: ignored a notification of unknown method "${request.method}"`);
        return null;
      }
      return createJSONRPCErrorResponse(request.id, RpcErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    };
    this.client = new JSONRPCClient<void>((payload) => this.writer.write(payload));
    this.ended = new Promise((resolve) => this.drained.push(resolve));
  }

  /** Registers the handler of a method the other side may call. */
  handle(method: string, handler: Handler): void {
    this.server.addMethod(method, (params, context) =>
      handler(params, { afterResponse: (task) => context.after.push(task) }),
    );
  }

  /** Starts reading the input. */
  start(): void {
    readLines(this.options.input, this.options.maxLineBytes, {
      line: (text) => this.onLine(text),
      oversized: (limit) =>
        this.writeError(null, RpcErrorCode.InvalidRequest, `Invalid request: the line is longer than ${limit} bytes`),
      unterminated: () =>
        this.writeError(
          null,
          RpcErrorCode.ParseError,
          'Parse error: the input ended in the middle of a line (every message must end with "\\n")',
        ),
      end: () => {
        this.inputEnded = true;
        this.checkDrained();
      },
    });
  }

  /** Sends a notification, checked against its schema first. */
  notify<M extends ServerNotification>(method: M, params: ServerNotificationParams<M>): void {
    const checked = SERVER_NOTIFICATIONS[method].parse(params);
    this.writer.write({ jsonrpc: '2.0', method, params: checked });
  }

  /**
   * Sends a request to the UI and resolves with how it ended: its result, its error, a timeout,
   * or withdrawn (when `signal` aborts: the runtime stops waiting and a late answer is ignored).
   */
  async request<M extends ServerMethod>(
    method: M,
    params: ServerParams<M>,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<PeerAnswer> {
    const checked = SERVER_REQUESTS[method].params.parse(params);
    const id = `rt-${++this.nextId}`;
    if (options.signal?.aborted) return { kind: 'withdrawn' };
    this.pending.add(id);
    const withdraw = () => {
      if (!this.pending.delete(id)) return;
      this.withdrawn.add(id);
      // Settles the client's wait for this id now; its answer, if it ever comes, finds no one waiting.
      this.client.receive(createJSONRPCErrorResponse(id, RpcErrorCode.UserCancelled, 'withdrawn'));
    };
    options.signal?.addEventListener('abort', withdraw, { once: true });
    const request: JSONRPCRequest = { jsonrpc: '2.0', id, method, params: checked };
    let response: JSONRPCResponse;
    try {
      response = await this.client
        .timeout(options.timeoutMs, (timedOutId) => {
          this.pending.delete(id);
          this.timedOut.add(timedOutId);
          return createJSONRPCErrorResponse(timedOutId, RpcErrorCode.InternalError, 'timeout');
        })
        .requestAdvanced(request);
    } finally {
      options.signal?.removeEventListener('abort', withdraw);
      this.pending.delete(id);
    }
    if (this.withdrawn.delete(id)) return { kind: 'withdrawn' };
    if (this.timedOut.delete(id)) return { kind: 'timeout' };
    if (response.error) return { kind: 'error', error: { ...response.error } };
    return { kind: 'result', result: response.result };
  }

  /** Resolves once every line written so far has been handed to the output. */
  flushed(): Promise<void> {
    return this.writer.flushed();
  }

  private onLine(text: string): void {
    if (text.trim() === '') return;
    // Before anything recursive (schemas, the session log's JSON.stringify): nesting is bounded.
    if (exceedsDepth(text)) {
      return this.writeError(
        null,
        RpcErrorCode.InvalidRequest,
        `Invalid request: nested deeper than ${MAX_JSON_DEPTH} levels`,
      );
    }
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (err) {
      return this.writeError(null, RpcErrorCode.ParseError, `Parse error: ${messageOf(err)}`);
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      const what = Array.isArray(message) ? 'an array (batches are not supported)' : `a ${jsonType(message)}`;
      return this.writeError(null, RpcErrorCode.InvalidRequest, `Invalid request: expected a JSON object, got ${what}`);
    }
    const object = message as Record<string, unknown>;
    const id = typeof object.id === 'string' || typeof object.id === 'number' ? object.id : null;
    // A response is never answered, even a malformed one: receiveResponse settles or ignores it.
    if (!('method' in object) && ('result' in object || 'error' in object)) return this.receiveResponse(object);
    const invalid = (why: string) => this.writeError(id, RpcErrorCode.InvalidRequest, `Invalid request: ${why}`);
    if (object.jsonrpc !== '2.0') return invalid('"jsonrpc" must be "2.0"');
    if ('method' in object) {
      if (typeof object.method !== 'string') return invalid('"method" must be a string');
      if ('id' in object && id === null) return invalid('"id" must be a string or a number');
      const params = object.params;
      if (params !== undefined && (typeof params !== 'object' || params === null)) {
        return invalid('"params" must be an object when present');
      }
      return this.receiveRequest(object as unknown as JSONRPCRequest);
    }
    return invalid('neither a request ("method") nor a response ("result" or "error")');
  }

  private receiveRequest(request: JSONRPCRequest): void {
    const context: ServerContext = { after: [] };
    this.inFlight += 1;
    Promise.resolve(this.server.receive(request, context))
      .then((response) => {
        if (response) this.writer.write(response);
        for (const task of context.after) task();
      })
      .catch((err: unknown) => this.options.log(`stdio: ${request.method} failed: ${messageOf(err)}`))
      .finally(() => {
        this.inFlight -= 1;
        this.checkDrained();
      });
  }

  private receiveResponse(object: Record<string, unknown>): void {
    const id = typeof object.id === 'string' || typeof object.id === 'number' ? object.id : null;
    // Answering an answer could loop between two peers: a response is never replied to, only logged.
    if (typeof id !== 'string' || !this.pending.delete(id)) {
      this.options.log(`stdio: ignored a response to ${JSON.stringify(object.id)}, which is not waiting for one`);
      return;
    }
    const parsed = RpcResponseSchema.safeParse(object);
    if (!parsed.success) {
      this.options.log(`stdio: the response to ${id} is malformed; taken as an error`);
      this.client.receive(createJSONRPCErrorResponse(id, RpcErrorCode.InvalidRequest, 'malformed response'));
      return;
    }
    this.client.receive(parsed.data as JSONRPCResponse);
  }

  private writeError(id: string | number | null, code: number, message: string): void {
    this.writer.write(createJSONRPCErrorResponse(id, code, message));
  }

  private checkDrained(): void {
    if (!this.inputEnded || this.inFlight > 0) return;
    for (const resolve of this.drained.splice(0)) resolve();
  }
}

function jsonType(value: unknown): string {
  return value === null ? 'null' : typeof value;
}
