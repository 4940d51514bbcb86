import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/*
 * Test support: a tiny real MCP server built with the official SDK, offering the tools `echo`
 * and `add`. Run as a script it serves over stdio (what a `command` entry spawns); in a test,
 * {@link startHttpFixture} serves it over Streamable HTTP on a free port.
 */

/** The fixture's tools; `extraTools` more makes counts tell servers apart. */
export function fixtureServer(extraTools = 0): McpServer {
  const server = new McpServer({ name: 'usher-fixture', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Says the text back', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  for (let i = 0; i < extraTools; i++) {
    server.registerTool(`extra-${i}`, { description: `Extra tool ${i}` }, async () => ({ content: [] }));
  }
  return server;
}

/** The fixture over Streamable HTTP (stateless: a server per request) at `url`. */
export async function startHttpFixture(extraTools = 0): Promise<{ url: string; close(): Promise<void> }> {
  const http: Server = createServer((req, res) => {
    const server = fixtureServer(extraTools);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** The command line that runs this file as a stdio MCP server. */
export function stdioFixtureCommand(): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: ['--import', import.meta.resolve('tsx'), new URL(import.meta.url).pathname, '--stdio'],
  };
}

if (process.argv.includes('--stdio') && process.argv[1] === new URL(import.meta.url).pathname) {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  await fixtureServer().connect(new StdioServerTransport());
}
