import type { ChatMessage, ToolCall, ToolSpec } from './client.ts';

/*
 * Tools outside the page that the LLM planner may offer the model beside the host's tools, such
 * as the tools of the MCP servers a runtime has connected. The model may call them to look
 * something up before it acts; their results go back to it as `tool` messages. They are never
 * the plan's action and never reach the host. This package knows only this interface: whoever
 * connects the servers (the runtime) implements it.
 */

/** One tool a server offers. */
export interface ExternalTool {
  /** The server that offers it (an MCP server's id). */
  server: string;
  name: string;
  description?: string;
  /** Its arguments, as JSON Schema. */
  inputSchema: Record<string, unknown>;
}

/** The external tools available now, and how to call one. */
export interface ExternalTools {
  /** The tools that can be called now; read once per plan. */
  list(): readonly ExternalTool[];
  /** Calls `tool` and resolves with its result as text; rejects when the call fails. */
  call(tool: ExternalTool, args: Record<string, unknown>, signal?: AbortSignal): Promise<string>;
}

/** One external call the model made while planning, in order. */
export interface ExternalCallRecord {
  /** The function name the model used, e.g. `mcp__files__read_file`. */
  function: string;
  server: string;
  tool: string;
  ok: boolean;
  /** Why it failed, when it did. */
  error?: string;
}

/** The prefix of every external function name; no host tool and not `say` starts with it. */
export const EXTERNAL_PREFIX = 'mcp__';
/** The API allows function names of `[a-zA-Z0-9_-]`, 1 to 64 characters. */
const MAX_NAME = 64;
/** A tool's result is clipped to this many characters before it goes back to the model. */
export const MAX_RESULT_CHARS = 4_000;
const MAX_DESCRIPTION = 1_000;

/** The external tools as functions for the model, and the tool behind each function name. */
export interface ExternalFunctions {
  specs: ToolSpec[];
  byName: ReadonlyMap<string, ExternalTool>;
}

/** `mcp__<server>__<tool>`, in the API's charset and length; unique among `taken`. */
export function externalName(tool: Pick<ExternalTool, 'server' | 'name'>, taken: ReadonlySet<string>): string {
  const safe = (text: string) => text.replace(/[^a-zA-Z0-9_-]/g, '_');
  const base = `${EXTERNAL_PREFIX}${safe(tool.server)}__${safe(tool.name)}`.slice(0, MAX_NAME);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const name = `${base.slice(0, MAX_NAME - suffix.length)}${suffix}`;
    if (!taken.has(name)) return name;
  }
}

/** Names every tool (first come, first named, so a listing in the same order maps the same way). */
export function externalFunctions(tools: readonly ExternalTool[]): ExternalFunctions {
  const byName = new Map<string, ExternalTool>();
  const specs: ToolSpec[] = [];
  for (const tool of tools) {
    const name = externalName(tool, new Set(byName.keys()));
    byName.set(name, tool);
    const about = tool.description?.trim() ? ` ${tool.description.trim()}` : '';
    specs.push({
      type: 'function',
      function: {
        name,
        description: `Tool "${tool.name}" of the server "${tool.server}", outside the page.${about}`.slice(
          0,
          MAX_DESCRIPTION,
        ),
        parameters: { ...tool.inputSchema, type: 'object' },
      },
    });
  }
  return { specs, byName };
}

/** What the conversation gets after a reply that called external tools, and what was called. */
export interface ExternalRound {
  messages: ChatMessage[];
  records: ExternalCallRecord[];
}

/**
 * Runs the external calls of one reply, one after the other, and answers every call of the reply
 * with a `tool` message: an external call with its result (or why it failed), a page tool called
 * in the same reply with a note that it was not carried out (the API wants an answer to each).
 * Resolves early, with what was done so far, when `signal` aborts.
 */
export async function runExternalCalls(
  calls: readonly ToolCall[],
  content: string | null,
  functions: ExternalFunctions,
  tools: ExternalTools,
  signal?: AbortSignal,
): Promise<ExternalRound> {
  const messages: ChatMessage[] = [
    {
      role: 'assistant',
      content,
      tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: c.function })),
    },
  ];
  const records: ExternalCallRecord[] = [];
  for (const call of calls) {
    if (signal?.aborted) break;
    const tool = functions.byName.get(call.function.name);
    if (!tool) {
      messages.push({
        role: 'tool',
        tool_call_id: call.id,
        content: `Not carried out: "${call.function.name}" acts on the page. Call page functions alone, in a reply of their own, after your lookups.`,
      });
      continue;
    }
    const record: ExternalCallRecord = {
      function: call.function.name,
      server: tool.server,
      tool: tool.name,
      ok: false,
    };
    records.push(record);
    const args = parseArguments(call.function.arguments);
    if (typeof args === 'string') {
      record.error = args;
      messages.push({ role: 'tool', tool_call_id: call.id, content: `Error: ${args}` });
      continue;
    }
    try {
      const result = await abortable(tools.call(tool, args, signal), signal);
      record.ok = true;
      messages.push({ role: 'tool', tool_call_id: call.id, content: clipResult(result) });
    } catch (err) {
      if (signal?.aborted) break;
      record.error = err instanceof Error ? err.message : String(err);
      messages.push({
        role: 'tool',
        tool_call_id: call.id,
        content: `Error: the tool "${tool.name}" of "${tool.server}" failed: ${clipResult(record.error)}`,
      });
    }
  }
  return { messages, records };
}

/** The arguments as an object, or why they are not one. */
function parseArguments(text: string): Record<string, unknown> | string {
  let args: unknown;
  try {
    args = JSON.parse(text || '{}');
  } catch {
    return `the arguments are not valid JSON: ${text.slice(0, 200)}`;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return 'the arguments must be a JSON object';
  return args as Record<string, unknown>;
}

/** A long result keeps its beginning, with a note of how much was left out. */
export function clipResult(text: string): string {
  if (text.length <= MAX_RESULT_CHARS) return text;
  return `${text.slice(0, MAX_RESULT_CHARS)}\n… (${text.length - MAX_RESULT_CHARS} more characters left out)`;
}

/** `promise`, or a rejection as soon as `signal` aborts (a tool that ignores the signal cannot hold the plan). */
function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new Error('cancelled'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
