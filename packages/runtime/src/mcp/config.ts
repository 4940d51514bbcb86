import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ConfigError } from '@usher/protocol/stdio';
import { z } from 'zod';
import { describeIssues } from '../stdio/errors.ts';

/*
 * MCP server configuration (DESIGN.md `mcp.list`): the common `{"mcpServers": {<id>: …}}` format,
 * from the project's `.usher/mcp.json` and the user's `mcp.json` in the config folder. An entry is
 * a command to spawn (stdio) or a URL (Streamable HTTP); `"disabled": true` or `"enabled": false`
 * keeps it configured but unused.
 */

const Switches = {
  enabled: z.boolean().optional(),
  disabled: z.boolean().optional(),
};

const StdioEntrySchema = z.looseObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1, 'must not be empty'),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().min(1).optional(),
  ...Switches,
});

const HttpEntrySchema = z.looseObject({
  type: z.enum(['http', 'streamable-http', 'streamableHttp']).optional(),
  url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }),
  headers: z.record(z.string(), z.string()).optional(),
  ...Switches,
});

const McpFileSchema = z.looseObject({
  mcpServers: z.record(z.string().min(1), z.unknown(), { error: 'must be an object of servers by id' }),
});

export type McpSource = 'project' | 'global';

export type McpConnectSpec =
  | { transport: 'stdio'; command: string; args: string[]; env?: Record<string, string>; cwd: string }
  | { transport: 'http'; url: string; headers?: Record<string, string> };

/** One configured server; `invalid` says why an entry cannot be used (it is then listed in `error`). */
export interface McpServerConfig {
  id: string;
  source: McpSource;
  /** The config file it comes from. */
  path: string;
  enabled: boolean;
  transport: 'stdio' | 'http';
  spec: McpConnectSpec | null;
  invalid?: string;
}

export interface McpConfig {
  servers: McpServerConfig[];
  /** Files that exist but could not be used. */
  errors: ConfigError[];
}

/**
 * Reads the config files; a missing file is normal. A server id in both files is the project's.
 * Relative `cwd`s, and the working directory of stdio servers, are the project root for the
 * project file and the config folder for the user's.
 */
export function loadMcpConfig(files: { project: string; global: string }): McpConfig {
  const errors: ConfigError[] = [];
  const project = readFile(files.project, 'project', resolve(dirname(files.project), '..'), errors);
  const global = readFile(files.global, 'global', dirname(files.global), errors);
  const ids = new Set(project.map((s) => s.id));
  return { servers: [...project, ...global.filter((s) => !ids.has(s.id))], errors };
}

function readFile(path: string, source: McpSource, base: string, errors: ConfigError[]): McpServerConfig[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') errors.push({ path, message: `cannot read the file (${code ?? String(err)})` });
    return [];
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    errors.push({ path, message: `not JSON: ${(err as Error).message}` });
    return [];
  }
  const file = McpFileSchema.safeParse(json);
  if (!file.success) {
    errors.push({ path, message: describeIssues(file.error) });
    return [];
  }
  return Object.entries(file.data.mcpServers).map(([id, entry]) => parseEntry(id, entry, path, source, base));
}

function parseEntry(id: string, entry: unknown, path: string, source: McpSource, base: string): McpServerConfig {
  const isHttp = typeof entry === 'object' && entry !== null && 'url' in entry;
  const common = { id, source, path, transport: isHttp ? ('http' as const) : ('stdio' as const) };
  const invalid = (error: z.ZodError): McpServerConfig => ({
    ...common,
    enabled: true,
    spec: null,
    invalid: `invalid config in ${path}: ${describeIssues(error)}`,
  });
  const enabledBy = (data: { enabled?: boolean; disabled?: boolean }) =>
    data.enabled !== false && data.disabled !== true;
  if (isHttp) {
    const parsed = HttpEntrySchema.safeParse(entry);
    if (!parsed.success) return invalid(parsed.error);
    const { url, headers } = parsed.data;
    return {
      ...common,
      enabled: enabledBy(parsed.data),
      spec: { transport: 'http', url, ...(headers && { headers }) },
    };
  }
  const parsed = StdioEntrySchema.safeParse(entry);
  if (!parsed.success) return invalid(parsed.error);
  const { command, args, env, cwd } = parsed.data;
  return {
    ...common,
    enabled: enabledBy(parsed.data),
    spec: { transport: 'stdio', command, args: args ?? [], ...(env && { env }), cwd: resolve(base, cwd ?? '.') },
  };
}
