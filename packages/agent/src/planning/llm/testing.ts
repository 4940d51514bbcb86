import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatMessage, ToolSpec } from './client.ts';
import type { LlmConfig } from './config.ts';

/*
 * Test support: a local fake of the OpenAI API (`POST /v1/chat/completions`, `GET /v1/models`)
 * on a free port, answering from a per-test queue of scripted replies and recording every
 * request. Imported by tests only.
 */

/** What the client sends to `POST /chat/completions`. */
export interface ChatRequestBody {
  model: string;
  messages: ChatMessage[];
  tools?: ToolSpec[];
  tool_choice?: string;
  temperature?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body of a chat completion request. */
  body: ChatRequestBody;
}

/** One scripted reply: a JSON body (status 200 by default), or raw text, optionally late. */
export interface ScriptedReply {
  status?: number;
  body?: unknown;
  raw?: string;
  delayMs?: number;
}

export interface FakeLlm {
  /** The base URL to configure, ending in `/v1`. */
  baseUrl: string;
  config(overrides?: Partial<LlmConfig>): LlmConfig;
  /** Chat completion requests, in order. */
  requests: RecordedRequest[];
  /** Queues replies to the next chat completion requests. */
  enqueue(...replies: (ScriptedReply | ((request: RecordedRequest) => ScriptedReply))[]): void;
  /** Answers every request once the queue is empty (by default an HTTP 500 saying nothing is left). */
  otherwise(reply: (request: RecordedRequest) => ScriptedReply): void;
  /** The model ids `GET /v1/models` lists. */
  models: string[];
  close(): Promise<void>;
}

/** A chat completion whose message is one call of `name` with `args` (serialized unless a string). */
export function toolCallReply(name: string, args: Record<string, unknown> | string, id = 'call_1'): ScriptedReply {
  return toolCallsReply([{ name, args, id }]);
}

export function toolCallsReply(calls: { name: string; args: Record<string, unknown> | string; id?: string }[]) {
  return completion({
    role: 'assistant',
    content: null,
    tool_calls: calls.map((c, i) => ({
      id: c.id ?? `call_${i + 1}`,
      type: 'function',
      function: { name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args) },
    })),
  });
}

/** `reply` (a chat completion) reporting `usage.prompt_tokens`, as the real API does. */
export function withUsage(reply: ScriptedReply, promptTokens: number): ScriptedReply {
  const body = reply.body as Record<string, unknown>;
  return { ...reply, body: { ...body, usage: { prompt_tokens: promptTokens, completion_tokens: 20 } } };
}

/** A chat completion whose message is plain text. */
export function textReply(content: string): ScriptedReply {
  return completion({ role: 'assistant', content });
}

function completion(message: unknown): ScriptedReply {
  return {
    body: {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 0,
      model: 'fake-model',
      choices: [{ index: 0, message, finish_reason: 'tool_calls' }],
    },
  };
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const requests: RecordedRequest[] = [];
  const queue: (ScriptedReply | ((request: RecordedRequest) => ScriptedReply))[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const fake = { models: ['fake-model', 'fake-model-large'] };
  let otherwise: ((request: RecordedRequest) => ScriptedReply) | null = null;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const send = (reply: ScriptedReply) => {
        const write = () => {
          if (res.destroyed) return;
          res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
          res.end(reply.raw ?? JSON.stringify(reply.body ?? {}));
        };
        if (!reply.delayMs) return write();
        const timer = setTimeout(() => {
          timers.delete(timer);
          write();
        }, reply.delayMs);
        timers.add(timer);
      };
      if (req.method === 'GET' && path === '/v1/models') {
        return send({ body: { object: 'list', data: fake.models.map((id) => ({ id, object: 'model' })) } });
      }
      if (req.method === 'POST' && path === '/v1/chat/completions') {
        let body: ChatRequestBody;
        try {
          body = JSON.parse(text) as ChatRequestBody;
        } catch {
          return send({ status: 400, body: { error: { message: 'the body is not JSON' } } });
        }
        const recorded: RecordedRequest = { method: req.method, path, headers: req.headers, body };
        requests.push(recorded);
        const next = queue.shift() ?? otherwise;
        if (!next) return send({ status: 500, body: { error: { message: 'the fake has no scripted reply left' } } });
        return send(typeof next === 'function' ? next(recorded) : next);
      }
      send({ status: 404, body: { error: { message: `no route ${req.method} ${path}` } } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}/v1`;

  return {
    baseUrl,
    config: (overrides = {}) => ({
      baseUrl,
      apiKey: 'sk-test',
      model: 'fake-model',
      timeoutMs: 5_000,
      contextTokens: 128_000,
      ...overrides,
    }),
    requests,
    enqueue: (...replies) => queue.push(...replies),
    otherwise: (reply) => {
      otherwise = reply;
    },
    get models() {
      return fake.models;
    },
    set models(ids: string[]) {
      fake.models = ids;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
