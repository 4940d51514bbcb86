import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../stdio/testing/runtime-process.ts';
import { loadMcpConfig } from './config.ts';
import { McpRegistry } from './registry.ts';
import { stdioFixtureCommand } from './testing/fixture-server.ts';

/* McpRegistry.call: a tool of a ready server, called through the SDK client, its result as text. */

let registry: McpRegistry | null = null;
afterEach(async () => {
  await registry?.close();
  registry = null;
});

async function fixtureRegistry(): Promise<McpRegistry> {
  const dir = tempDir();
  const fixture = stdioFixtureCommand();
  writeFileSync(
    join(dir, 'mcp.json'),
    JSON.stringify({
      mcpServers: {
        fixture: { command: fixture.command, args: fixture.args },
        off: { command: fixture.command, args: fixture.args, disabled: true },
      },
    }),
  );
  registry = new McpRegistry({
    config: loadMcpConfig({ project: join(dir, 'mcp.json'), global: join(dir, 'none.json') }),
    client: { name: 'usher-test', version: '0' },
    log: () => {},
  });
  await registry.start();
  return registry;
}

describe('McpRegistry.call', () => {
  it('calls a tool of a ready server and resolves with its text', async () => {
    const mcp = await fixtureRegistry();
    expect(mcp.tools().map((t) => `${t.server}/${t.name}`)).toEqual(['fixture/echo', 'fixture/add']);
    expect(await mcp.call('fixture', 'echo', { text: 'hello there' })).toBe('hello there');
    expect(await mcp.call('fixture', 'add', { a: 2, b: 40 })).toBe('42');
  });

  it("rejects a call the tool refuses, with the server's words", async () => {
    const mcp = await fixtureRegistry();
    await expect(mcp.call('fixture', 'add', { a: 'two', b: 40 })).rejects.toThrow(
      /Invalid arguments for tool add: .*expected number/,
    );
    await expect(mcp.call('fixture', 'nope', {})).rejects.toThrow(/Tool nope not found/);
  });

  it('rejects a server that is unknown or not ready, and an aborted call', async () => {
    const mcp = await fixtureRegistry();
    await expect(mcp.call('ghost', 'echo', { text: 'x' })).rejects.toThrow('there is no MCP server "ghost"');
    await expect(mcp.call('off', 'echo', { text: 'x' })).rejects.toThrow(
      'the MCP server "off" is not ready (disabled)',
    );
    await expect(mcp.call('fixture', 'echo', { text: 'x' }, AbortSignal.abort())).rejects.toThrow();
  });
});
