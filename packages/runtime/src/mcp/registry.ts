import type { Stream } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ConfigError, McpServerInfo, McpServerState } from '@usher/protocol/stdio';
import { messageOf } from '../stdio/errors.ts';
import type { McpConfig, McpConnectSpec, McpServerConfig } from './config.ts';

export interface McpRegistryOptions {
  config: McpConfig;
  /** The client name and version the servers see. */
  client: { name: string; version: string };
  /** How long connecting and listing tools may take; default 15 s. */
  connectTimeoutMs?: number;
  log(line: string): void;
}

/** A tool an MCP server offers, for a planner that can call tools. */
export interface McpTool {
  server: string;
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

interface Entry {
  config: McpServerConfig;
  state: McpServerState;
  tools: McpTool[];
  lastError?: string;
  lastConnectedAt?: string;
  client?: Client;
  /** The last lines the server wrote on stderr, to explain a failure. */
  stderrTail: string[];
}

/**
 * The MCP servers the runtime uses (DESIGN.md `mcp.list`), connected with the official SDK: a
 * stdio server is spawned, an HTTP one is reached over Streamable HTTP. Every enabled server is
 * connected at start, in the background; {@link list} reports each one's state at that moment,
 * so it answers at once, also while a run is active.
 */
export class McpRegistry {
  private readonly entries: Entry[];
  private closed = false;

  constructor(private readonly options: McpRegistryOptions) {
    this.entries = options.config.servers.map((config) => ({
      config,
      state: config.invalid ? 'error' : config.enabled ? 'connecting' : 'disabled',
      tools: [],
      ...(config.invalid && { lastError: config.invalid }),
      stderrTail: [],
    }));
  }

  /** Config files that could not be used. */
  get errors(): ConfigError[] {
    return this.options.config.errors;
  }

  /** Connects every enabled server; resolves when each one is ready or has failed. */
  start(): Promise<void> {
    return Promise.all(this.entries.filter((e) => e.state === 'connecting').map((e) => this.connect(e))).then(() => {});
  }

  /** `loaded`: the enabled servers; `configured`: every configured one. */
  list(scope: 'loaded' | 'configured' = 'loaded'): McpServerInfo[] {
    return this.entries
      .filter((e) => scope === 'configured' || e.config.enabled)
      .map((e) => ({
        id: e.config.id,
        transport: e.config.transport,
        source: e.config.source,
        enabled: e.config.enabled,
        state: e.state,
        ...(e.state === 'ready' && { tools: e.tools.length }),
        ...(e.lastError !== undefined && { last_error: e.lastError }),
        ...(e.lastConnectedAt !== undefined && { last_connected_at: e.lastConnectedAt }),
      }));
  }

  /** The tools of every ready server. */
  tools(): McpTool[] {
    return this.entries.filter((e) => e.state === 'ready').flatMap((e) => e.tools);
  }

  /**
   * Calls the tool `name` of the ready server `server` and resolves with its result as text (the
   * text parts joined, other parts named, else the structured content as JSON). Rejects when the
   * server is not ready, the call fails, times out (the SDK's 60 s) or is aborted, or the tool
   * reports an error (`isError`, with its text).
   */
  async call(server: string, name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<string> {
    const entry = this.entries.find((e) => e.config.id === server);
    if (!entry) throw new Error(`there is no MCP server "${server}"`);
    const client = entry.client;
    if (entry.state !== 'ready' || !client) throw new Error(`the MCP server "${server}" is not ready (${entry.state})`);
    const result = await client.callTool({ name, arguments: args }, undefined, signal ? { signal } : undefined);
    const text = resultText(result);
    if (result.isError === true) throw new Error(text || `the tool "${name}" reported an error`);
    return text;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      this.entries.map(async (e) => {
        const client = e.client;
        e.client = undefined;
        await client?.close().catch(() => {});
      }),
    );
  }

  private async connect(entry: Entry): Promise<void> {
    const spec = entry.config.spec as McpConnectSpec;
    const id = entry.config.id;
    const client = new Client(this.options.client);
    entry.client = client;
    const timeoutMs = this.options.connectTimeoutMs ?? 15_000;
    let timer: NodeJS.Timeout | undefined;
    try {
      const transport = this.transportFor(entry, spec);
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      });
      const ready = (async () => {
        await client.connect(transport);
        const tools: McpTool[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listTools(cursor ? { cursor } : undefined);
          for (const tool of page.tools) {
            tools.push({
              server: id,
              name: tool.name,
              ...(tool.description !== undefined && { description: tool.description }),
              inputSchema: tool.inputSchema as Record<string, unknown>,
            });
          }
          cursor = page.nextCursor;
        } while (cursor);
        return tools;
      })();
      entry.tools = await Promise.race([ready, timeout]);
      if (this.closed) return;
      entry.state = 'ready';
      entry.lastError = undefined;
      entry.lastConnectedAt = new Date().toISOString();
      this.options.log(`mcp: ${id} ready with ${entry.tools.length} tool(s)`);
      client.onclose = () => {
        if (this.closed || entry.client !== client) return;
        entry.state = 'error';
        entry.lastError = this.withStderr(entry, 'the server closed the connection');
        this.options.log(`mcp: ${id}: ${entry.lastError}`);
      };
    } catch (err) {
      entry.state = 'error';
      entry.lastError = this.withStderr(entry, messageOf(err));
      entry.client = undefined;
      this.options.log(`mcp: ${id} failed: ${entry.lastError}`);
      await client.close().catch(() => {});
    } finally {
      clearTimeout(timer);
    }
  }

  private transportFor(entry: Entry, spec: McpConnectSpec): Transport {
    if (spec.transport === 'http') {
      return new StreamableHTTPClientTransport(
        new URL(spec.url),
        spec.headers ? { requestInit: { headers: spec.headers } } : undefined,
      );
    }
    const transport = new StdioClientTransport({
      command: spec.command,
      args: spec.args,
      cwd: spec.cwd,
      stderr: 'pipe',
      ...(spec.env && { env: spec.env }),
    });
    this.followStderr(entry, transport.stderr);
    return transport;
  }

  /** Forwards a stdio server's stderr to the runtime's log, keeping its last lines. */
  private followStderr(entry: Entry, stream: Stream | null): void {
    let partial = '';
    stream?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines.filter((l) => l.trim() !== '')) {
        this.options.log(`mcp ${entry.config.id}: ${line}`);
        entry.stderrTail.push(line.trim());
        if (entry.stderrTail.length > 3) entry.stderrTail.shift();
      }
    });
  }

  private withStderr(entry: Entry, message: string): string {
    const tail = entry.stderrTail.join(' | ');
    return tail ? `${message} (stderr: ${tail.slice(-300)})` : message;
  }
}

/** A tool result as text for a model: text parts as they are, other parts by kind, else the structured content. */
function resultText(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? (result.content as Record<string, unknown>[]) : [];
  const parts = content.map((part) => {
    if (part.type === 'text' && typeof part.text === 'string') return part.text;
    if (part.type === 'resource' && typeof part.resource === 'object' && part.resource !== null) {
      const resource = part.resource as Record<string, unknown>;
      return typeof resource.text === 'string' ? resource.text : `[resource ${String(resource.uri)}]`;
    }
    if (part.type === 'resource_link') return `[resource ${String(part.uri)}]`;
    return `[${String(part.type)}${typeof part.mimeType === 'string' ? ` ${part.mimeType}` : ''}]`;
  });
  if (parts.length > 0) return parts.join('\n');
  if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  // The protocol's older shape: `{toolResult}`.
  return result.toolResult !== undefined ? JSON.stringify(result.toolResult) : '';
}
