import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import {
  CLIENT_REQUESTS,
  type ClientMethod,
  type ClientParams,
  type ClientResult,
  type InitializeResult,
  PROTOCOL_VERSION,
  RpcErrorCode,
  type RpcId,
  SERVER_NOTIFICATIONS,
  SERVER_REQUESTS,
  type ServerMethod,
} from '@usher/protocol/stdio';
import {
  createJSONRPCErrorResponse,
  createJSONRPCRequest,
  createJSONRPCSuccessResponse,
  JSONRPCClient,
  type JSONRPCRequest,
  JSONRPCServer,
  JSONRPCServerAndClient,
} from 'json-rpc-2.0';
import {
  classifyMessage,
  describeIssues,
  isKnownNotification,
  type RuntimeNotification,
  type UiRequest,
} from './protocol.ts';

/** The runtime answered a request with a JSON-RPC error (spec §9 codes, or JSON-RPC's own). */
export class RpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** A request that got no usable answer; local to the UI, never sent. */
export class ClientError extends Error {
  constructor(
    readonly code: 'timeout' | 'closed' | 'bad-answer' | 'bad-params',
    message: string,
  ) {
    super(message);
    this.name = 'ClientError';
  }
}

/** Any thrown value as a sentence for the screen; a runtime error keeps its code. */
export function errorMessage(err: unknown): string {
  if (err instanceof RpcError) return `${err.message} (code ${err.code})`;
  return err instanceof Error ? err.message : String(err);
}

/** A runtime→UI request as the UI sees it: its id and validated params. */
export type IncomingUiRequest = UiRequest & { id: RpcId };

export interface RuntimeClientOptions {
  /** The runtime's stdout: NDJSON, one message a line. */
  input: Readable;
  /** The runtime's stdin. */
  output: Writable;
  /** How long a request waits for its answer before it fails with `timeout` (default 30 s). */
  timeoutMs?: number;
  /** A validated `agent.event`, `run.status` or `run.context`. */
  onNotification(notification: RuntimeNotification): void;
  /** Something the runtime sent that is not the protocol, said in one sentence; the client goes on. */
  onProblem(message: string): void;
  /** Asks the operator; the promise settles with the answer sent back to the runtime (checked against §7). */
  onUiRequest(request: IncomingUiRequest): Promise<unknown>;
  /** The runtime's stdout ended: every pending request has failed with `closed`. */
  onClose?(): void;
}

/** What this UI tells the runtime it can do (spec §4.2): every dialog of §7. */
export const UI_CAPABILITIES = { supports_confirm: true, supports_prompt: true, supports_pick: true } as const;

/**
 * The UI's end of the JSON-RPC 2.0 NDJSON stdio protocol (spec §2–§3): requests with correlated
 * answers and timeouts, validated notifications, and answers to the runtime's own requests. Every
 * line read is validated; a bad one is reported through `onProblem` and never throws.
 */
export class RuntimeClient {
  private readonly rpc: JSONRPCServerAndClient;
  private readonly pending = new Set<RpcId>();
  private readonly expired = new Set<RpcId | null>();
  /** Requests that timed out: an answer that still comes is reported as late, not as unknown. */
  private readonly late = new Set<RpcId>();
  private nextId = 0;
  private closedReason: string | null = null;

  constructor(private readonly options: RuntimeClientOptions) {
    const reportLibraryError = (message: string) => options.onProblem(message);
    const server = new JSONRPCServer({ errorListener: reportLibraryError });
    const client = new JSONRPCClient((payload) => this.write(payload));
    this.rpc = new JSONRPCServerAndClient(server, client, { errorListener: reportLibraryError });
    for (const method of Object.keys(SERVER_REQUESTS) as ServerMethod[]) {
      this.rpc.addMethodAdvanced(method, (request) => this.answerUiRequest(method, request));
    }
    server.handleMethodNotFound = async (request) => {
      options.onProblem(`the runtime asked for ${request.method}, which this UI does not know`);
      return request.id === undefined || request.id === null
        ? null
        : createJSONRPCErrorResponse(request.id, RpcErrorCode.MethodNotFound, `method not found: ${request.method}`);
    };
    options.output.on('error', (err) => options.onProblem(`cannot write to the runtime: ${err.message}`));
    const lines = createInterface({ input: options.input, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on('line', (line) => this.receiveLine(line));
    lines.on('close', () => this.close('the runtime closed its output'));
  }

  /** Says hello (spec §4.1) and checks that the runtime speaks this protocol version. */
  async initialize(clientVersion: string): Promise<InitializeResult> {
    const result = await this.request('initialize', {
      protocol_version: PROTOCOL_VERSION,
      client: { name: 'usher-tui', version: clientVersion },
      ui_capabilities: UI_CAPABILITIES,
    });
    if (result.protocol_version !== PROTOCOL_VERSION) {
      throw new ClientError(
        'bad-answer',
        `the runtime speaks protocol version ${result.protocol_version}; this UI speaks ${PROTOCOL_VERSION}`,
      );
    }
    return result;
  }

  /** Sends a request and resolves with its validated result; rejects with {@link RpcError} or {@link ClientError}. */
  async request<M extends ClientMethod>(
    method: M,
    params: ClientParams<M>,
    options: { timeoutMs?: number } = {},
  ): Promise<ClientResult<M>> {
    if (this.closedReason) throw new ClientError('closed', this.closedReason);
    const checked = CLIENT_REQUESTS[method].params.safeParse(params);
    if (!checked.success) {
      throw new ClientError('bad-params', `${method}: ${describeIssues(checked.error)}`);
    }
    this.nextId += 1;
    const id = String(this.nextId);
    this.pending.add(id);
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? 30_000;
    const request = createJSONRPCRequest(id, method, checked.data as JSONRPCRequest['params']);
    const response = await this.rpc.client
      .timeout(timeoutMs, (expiredId) => {
        this.expired.add(expiredId);
        return createJSONRPCErrorResponse(expiredId, 0, 'timeout');
      })
      .requestAdvanced(request);
    this.pending.delete(id);
    if (this.expired.delete(id)) {
      this.late.add(id);
      throw new ClientError('timeout', `the runtime did not answer ${method} within ${Math.round(timeoutMs / 1000)} s`);
    }
    if (this.closedReason && response.error?.code === 0) throw new ClientError('closed', this.closedReason);
    if (response.error) {
      throw new RpcError(method, response.error.code, response.error.message, response.error.data);
    }
    const result = CLIENT_REQUESTS[method].result.safeParse(response.result);
    if (!result.success) {
      throw new ClientError(
        'bad-answer',
        `the runtime's answer to ${method} is not the protocol: ${describeIssues(result.error)}`,
      );
    }
    return result.data as ClientResult<M>;
  }

  /** Fails every pending request with `closed`; later requests fail at once. */
  close(reason: string): void {
    if (this.closedReason) return;
    this.closedReason = reason;
    this.rpc.rejectAllPendingRequests(reason);
    this.options.onClose?.();
  }

  private write(payload: unknown): void {
    if (this.closedReason) throw new Error(this.closedReason);
    this.options.output.write(`${JSON.stringify(payload)}\n`);
  }

  private receiveLine(line: string): void {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.options.onProblem(`the runtime sent a line that is not JSON: ${excerpt(line)}`);
      return;
    }
    const message = classifyMessage(value);
    switch (message.kind) {
      case 'invalid':
        this.options.onProblem(
          `the runtime sent a message that is not JSON-RPC 2.0 (${message.error}): ${excerpt(line)}`,
        );
        return;
      case 'response': {
        const { id } = message.message;
        if (id !== null && this.late.delete(id)) {
          this.options.onProblem(`the runtime answered request ${id} after it had timed out`);
          return;
        }
        if (id === null || !this.pending.has(id)) {
          this.options.onProblem(`the runtime answered a request this UI did not send (id ${JSON.stringify(id)})`);
          return;
        }
        this.rpc.client.receive(message.message as never);
        return;
      }
      case 'notification': {
        const { method, params } = message.message;
        if (!isKnownNotification(method)) return; // spec §3: notifications a newer runtime adds are tolerated
        const checked = SERVER_NOTIFICATIONS[method].safeParse(params);
        if (!checked.success) {
          this.options.onProblem(
            `the runtime sent a bad ${method} (${describeIssues(checked.error)}): ${excerpt(line)}`,
          );
          return;
        }
        this.options.onNotification({ method, params: checked.data } as RuntimeNotification);
        return;
      }
      case 'request':
        void this.rpc.receiveAndSend(message.message, undefined, undefined).catch((err: unknown) => {
          this.options.onProblem(`cannot answer the runtime's ${message.message.method}: ${String(err)}`);
        });
        return;
    }
  }

  private async answerUiRequest(method: ServerMethod, request: JSONRPCRequest) {
    const { id } = request;
    const spec = SERVER_REQUESTS[method];
    const params = spec.params.safeParse(request.params);
    if (!params.success) {
      const reason = describeIssues(params.error);
      this.options.onProblem(`the runtime sent a bad ${method} (${reason})`);
      return id === undefined || id === null
        ? null
        : createJSONRPCErrorResponse(id, RpcErrorCode.InvalidParams, `invalid params: ${reason}`);
    }
    if (id === undefined || id === null) {
      this.options.onProblem(`the runtime sent ${method} without an id, so it cannot be answered`);
      return null;
    }
    const answer = spec.result.safeParse(
      await this.options.onUiRequest({ id, method, params: params.data } as IncomingUiRequest),
    );
    if (!answer.success) throw new Error(`this UI's answer is not the protocol: ${describeIssues(answer.error)}`);
    return createJSONRPCSuccessResponse(id, answer.data);
  }
}

function excerpt(line: string): string {
  return line.length > 120 ? `${line.slice(0, 117)}…` : line;
}
