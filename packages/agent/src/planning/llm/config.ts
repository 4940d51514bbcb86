/*
 * Configuration of the LLM planner (spec §9, phase 3), read from the environment. Any
 * OpenAI-compatible chat-completions server works: OpenAI itself, or a local one.
 */

/** Where and how to reach the model. */
export interface LlmConfig {
  /** The API root without a trailing slash, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`; null for local servers that need none. */
  apiKey: string | null;
  model: string;
  /** How long one request may take, in milliseconds. */
  timeoutMs: number;
  /** The model's context window in tokens: what the operator's `ctx=` figure is measured against. */
  contextTokens: number;
}

export const DEFAULT_LLM_TIMEOUT_MS = 30_000;
/** The context window assumed when `USHER_LLM_CONTEXT_TOKENS` is not set (today's common 128k). */
export const DEFAULT_LLM_CONTEXT_TOKENS = 128_000;

/** The environment variables the planner reads. */
export const LLM_ENV = {
  baseUrl: 'USHER_LLM_BASE_URL',
  apiKey: 'USHER_LLM_API_KEY',
  model: 'USHER_LLM_MODEL',
  timeoutMs: 'USHER_LLM_TIMEOUT_MS',
  contextTokens: 'USHER_LLM_CONTEXT_TOKENS',
} as const;

/** A configuration that is set but unusable (a malformed URL, a missing model). */
export class LlmConfigError extends Error {
  override readonly name = 'LlmConfigError';
}

/** Checks and normalizes a base URL: http(s) only, no query or fragment, no trailing slash. */
export function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new LlmConfigError(
      `${LLM_ENV.baseUrl} is not a valid URL: "${raw}" (expected e.g. https://api.openai.com/v1 or http://127.0.0.1:8080/v1)`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new LlmConfigError(`${LLM_ENV.baseUrl} must be an http:// or https:// URL, got "${raw}"`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new LlmConfigError(`${LLM_ENV.baseUrl} must not have a query or a fragment, got "${raw}"`);
  }
  return url.href.replace(/\/+$/, '');
}

/**
 * The LLM configuration in `env`, or null when none of `USHER_LLM_BASE_URL`, `USHER_LLM_MODEL`
 * and `USHER_LLM_API_KEY` is set (the deterministic planner then stays the only one). A partial
 * or malformed configuration throws an {@link LlmConfigError} that names the variable.
 */
export function llmConfigFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): LlmConfig | null {
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value ? value : null;
  };
  const baseUrl = read(LLM_ENV.baseUrl);
  const model = read(LLM_ENV.model);
  const apiKey = read(LLM_ENV.apiKey);
  const timeout = read(LLM_ENV.timeoutMs);
  const context = read(LLM_ENV.contextTokens);
  if (baseUrl === null && model === null && apiKey === null) return null;
  if (baseUrl === null) {
    throw new LlmConfigError(
      `${LLM_ENV.baseUrl} is required when ${model !== null ? LLM_ENV.model : LLM_ENV.apiKey} is set (e.g. https://api.openai.com/v1)`,
    );
  }
  if (model === null) throw new LlmConfigError(`${LLM_ENV.model} is required when ${LLM_ENV.baseUrl} is set`);
  const timeoutMs =
    timeout === null ? DEFAULT_LLM_TIMEOUT_MS : positiveWhole(LLM_ENV.timeoutMs, timeout, 'milliseconds');
  const contextTokens =
    context === null ? DEFAULT_LLM_CONTEXT_TOKENS : positiveWhole(LLM_ENV.contextTokens, context, 'tokens');
  return { baseUrl: normalizeBaseUrl(baseUrl), apiKey, model, timeoutMs, contextTokens };
}

/** `raw` as a positive whole number, or an {@link LlmConfigError} naming the variable. */
function positiveWhole(name: string, raw: string, unit: string): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value <= 0) {
    throw new LlmConfigError(`${name} must be a positive whole number of ${unit}, got "${raw}"`);
  }
  return value;
}
