import { z } from 'zod';
import type { LlmConfig } from './config.ts';

/*
 * A minimal client of the OpenAI chat-completions API (POST /chat/completions, GET /models) over
 * the global `fetch`. Every failure becomes an {@link LlmError}; the API key never appears in one.
 */

export const ToolCallSchema = z.object({
  id: z.string(),
  // Some compatible servers leave `type` out; when present it must be `function`.
  type: z.literal('function').optional(),
  function: z.object({ name: z.string(), arguments: z.string() }),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const AssistantMessageSchema = z
  .object({
    role: z.literal('assistant').optional(),
    content: z.string().nullish(),
    tool_calls: z.array(ToolCallSchema).nullish(),
  })
  .refine((m) => typeof m.content === 'string' || (m.tool_calls?.length ?? 0) > 0, {
    message: 'the message has neither content nor tool_calls',
  });
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;

export const ChatCompletionSchema = z.object({
  choices: z.array(z.object({ message: AssistantMessageSchema })).min(1),
  // Optional in compatible servers; a malformed one is ignored rather than failing the answer.
  usage: z
    .object({ prompt_tokens: z.number().int().nonnegative() })
    .optional()
    .catch(() => undefined),
});

/** A chat completion's first message and, when the server reports it, how many tokens the prompt took. */
export interface ChatCompletion {
  message: AssistantMessage;
  /** `usage.prompt_tokens`, when present. */
  promptTokens?: number;
}

export const ModelListSchema = z.object({ data: z.array(z.object({ id: z.string() })) });

/** One message of a conversation, in the API's format. */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A function offered to the model. */
export interface ToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export type LlmErrorKind = 'network' | 'timeout' | 'aborted' | 'http' | 'bad-json' | 'schema';

/** A request to the model that did not give a usable answer. */
export class LlmError extends Error {
  override readonly name = 'LlmError';
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Defaults to the config's `timeoutMs`. */
  timeoutMs?: number;
}

export interface ChatOptions extends RequestOptions {
  tools?: ToolSpec[];
  /** `required` forces a tool call; sent only with tools. */
  toolChoice?: 'auto' | 'required' | 'none';
}

/** Sends one chat completion and returns the first choice's message. */
export async function chatCompletion(
  config: LlmConfig,
  messages: ChatMessage[],
  options: ChatOptions = {},
): Promise<AssistantMessage> {
  return (await chatCompletionWithUsage(config, messages, options)).message;
}

/** Sends one chat completion and returns the first choice's message with the prompt's token count. */
export async function chatCompletionWithUsage(
  config: LlmConfig,
  messages: ChatMessage[],
  options: ChatOptions = {},
): Promise<ChatCompletion> {
  const tools = options.tools && options.tools.length > 0 ? options.tools : undefined;
  const body = {
    model: config.model,
    messages,
    ...(tools && { tools, ...(options.toolChoice && { tool_choice: options.toolChoice }) }),
    temperature: 0,
  };
  const json = await request(config, 'POST', '/chat/completions', body, options);
  const parsed = ChatCompletionSchema.safeParse(json);
  if (!parsed.success) {
    throw new LlmError('schema', `the chat completion does not have the expected shape: ${summarize(parsed.error)}`);
  }
  // `min(1)` above makes the first choice exist.
  const { message } = parsed.data.choices[0] as { message: AssistantMessage };
  const promptTokens = parsed.data.usage?.prompt_tokens;
  return { message, ...(promptTokens !== undefined && { promptTokens }) };
}

/** The ids of the models the server offers (`GET /models`). */
export async function listModels(config: LlmConfig, options: RequestOptions = {}): Promise<string[]> {
  const json = await request(config, 'GET', '/models', undefined, options);
  const parsed = ModelListSchema.safeParse(json);
  if (!parsed.success) {
    throw new LlmError('schema', `the model list does not have the expected shape: ${summarize(parsed.error)}`);
  }
  return parsed.data.data.map((m) => m.id);
}

async function request(
  config: LlmConfig,
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  options: RequestOptions,
): Promise<unknown> {
  const url = `${config.baseUrl}${path}`;
  const timeoutMs = options.timeoutMs ?? config.timeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  let text: string;
  let status: number;
  try {
    const response = await fetch(url, {
      method,
      headers,
      signal,
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    status = response.status;
    text = await response.text();
  } catch (err) {
    if (timeout.aborted) throw new LlmError('timeout', `${method} ${url} timed out after ${timeoutMs} ms`);
    if (options.signal?.aborted) throw new LlmError('aborted', `${method} ${url} was cancelled`);
    const cause = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    throw new LlmError('network', `${method} ${url} failed: ${cause}`);
  }
  if (status !== 200) {
    throw new LlmError('http', `${method} ${url} answered HTTP ${status}: ${errorText(text)}`, status);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new LlmError('bad-json', `${method} ${url} answered with invalid JSON: ${clip(text, 200)}`);
  }
}

/** The `error.message` of an OpenAI-style error body, else the body itself, shortened. */
function errorText(text: string): string {
  try {
    const json: unknown = JSON.parse(text);
    const parsed = z.object({ error: z.object({ message: z.string() }) }).safeParse(json);
    if (parsed.success) return clip(parsed.data.error.message, 300);
  } catch {
    // not JSON: fall through to the raw text
  }
  return clip(text, 300) || '(empty body)';
}

function summarize(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
