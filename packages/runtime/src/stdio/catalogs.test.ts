import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeLlm } from '@usher/agent/llm-testing';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { startHttpFixture, stdioFixtureCommand } from '../mcp/testing/fixture-server.ts';
import { type Line, type RuntimeProcess, spawnRuntime, tempDir } from './testing/runtime-process.ts';

/* What the runtime lists: MCP servers (real ones, over stdio and HTTP), skills, and OpenAI-compatible models. */

let runtimes: RuntimeProcess[] = [];
function start(args: string[], cwd: string, env?: NodeJS.ProcessEnv): RuntimeProcess {
  const runtime = spawnRuntime(args, { cwd, ...(env && { env }) });
  runtimes.push(runtime);
  return runtime;
}

afterEach(() => {
  for (const runtime of runtimes) expect(runtime.impure, 'stdout lines that are not JSON-RPC').toEqual([]);
  runtimes = [];
});

function writeJson(path: string, value: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
}

type Server = { id: string; state: string; [key: string]: unknown };

/** mcp.list until no server is still connecting. */
async function settledServers(runtime: RuntimeProcess, scope?: string): Promise<Server[]> {
  for (;;) {
    const response = await runtime.request('mcp.list', scope ? { scope } : {});
    const servers = (response.result?.servers ?? []) as Server[];
    if (!servers.some((s) => s.state === 'connecting')) return servers;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('mcp.list', () => {
  it('connects configured servers with the MCP SDK over stdio and HTTP and reports state, tools and errors', async () => {
    const http = await startHttpFixture(1);
    onTestFinished(() => http.close());
    const cwd = tempDir();
    const fixture = stdioFixtureCommand();
    writeJson(join(cwd, '.usher/mcp.json'), {
      mcpServers: {
        echo: { command: fixture.command, args: fixture.args },
        crashing: { command: process.execPath, args: ['-e', 'console.error("no config for you"); process.exit(3)'] },
        missing: { command: '/nonexistent/mcp-server' },
        off: { command: fixture.command, args: fixture.args, disabled: true },
        web: { url: 'http://127.0.0.1:9/overridden-by-project' },
        broken: { url: 'not a url' },
      },
    });
    writeJson(join(cwd, 'config-home/mcp.json'), {
      mcpServers: {
        web: { url: http.url },
        remote: { url: http.url, headers: { 'x-test': '1' } },
      },
    });
    const runtime = start([], cwd);
    const servers = await settledServers(runtime);
    const byId = Object.fromEntries(servers.map((s) => [s.id, s]));
    expect(Object.keys(byId).sort()).toEqual(['broken', 'crashing', 'echo', 'missing', 'remote', 'web']);
    expect(byId.echo).toEqual({
      id: 'echo',
      transport: 'stdio',
      source: 'project',
      enabled: true,
      state: 'ready',
      tools: 2,
      last_connected_at: expect.any(String),
    });
    expect(byId.remote).toMatchObject({ transport: 'http', source: 'global', state: 'ready', tools: 3 });
    // The project's entry wins over the user's of the same id.
    expect(byId.web).toMatchObject({ transport: 'http', source: 'project', state: 'error' });
    expect(byId.crashing).toMatchObject({ state: 'error', last_error: expect.stringMatching(/no config for you/) });
    expect(byId.missing).toMatchObject({ state: 'error', last_error: expect.any(String) });
    expect(byId.broken).toMatchObject({ state: 'error', last_error: expect.stringMatching(/url/) });

    const configured = await settledServers(runtime, 'configured');
    expect(configured.find((s) => s.id === 'off')).toEqual({
      id: 'off',
      transport: 'stdio',
      source: 'project',
      enabled: false,
      state: 'disabled',
    });
    const bad = await runtime.request('mcp.list', { scope: 'everything' });
    expect(bad.error).toMatchObject({ code: -32602, message: expect.stringMatching(/scope/) });
    expect(await runtime.close()).toBe(0);
  }, 60_000);

  it('reports a config file that is not JSON, and lists the other file', async () => {
    const http = await startHttpFixture();
    onTestFinished(() => http.close());
    const cwd = tempDir();
    mkdirSync(join(cwd, '.usher'));
    writeFileSync(join(cwd, '.usher/mcp.json'), '{ "mcpServers": ');
    writeJson(join(cwd, 'config-home/mcp.json'), { mcpServers: { web: { url: http.url } } });
    const runtime = start([], cwd);
    const servers = await settledServers(runtime);
    expect(servers).toEqual([expect.objectContaining({ id: 'web', state: 'ready', tools: 2 })]);
    const response = await runtime.request('mcp.list', {});
    expect(response.result?.errors).toEqual([
      { path: join(cwd, '.usher/mcp.json'), message: expect.stringMatching(/not JSON/) },
    ]);
  }, 30_000);
});

function writeSkill(dir: string, name: string, text: string): void {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, 'SKILL.md'), text);
}

const skillIds = (response: Line) => ((response.result?.skills ?? []) as { id: string }[]).map((s) => s.id);

const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\nDo it well.\n`;

describe('skills.list', () => {
  it("lists the repo's and the user's skills with errors for bad ones, and reloads on force_reload", async () => {
    const cwd = tempDir();
    writeSkill(join(cwd, 'skills'), 'seats', skill('seat-picking', 'Pick seats together'));
    writeSkill(join(cwd, 'skills'), 'broken', 'no front matter here\n');
    writeSkill(join(cwd, 'skills'), 'half', '---\nname: half\n---\n\nbody\n');
    writeSkill(join(cwd, 'config-home/skills'), 'mine', skill('my-way', 'How I like it'));
    const extra = join(cwd, 'more-skills');
    writeSkill(extra, 'x', skill('extra-one', 'From --skills'));
    const runtime = start(['--skills', extra, join(cwd, 'no-such-folder')], cwd);

    const response = await runtime.request('skills.list', {});
    const result = response.result as {
      skills: Record<string, unknown>[];
      errors: { path: string; message: string }[];
      truncated: boolean;
    };
    expect(result.truncated).toBe(false);
    expect(result.skills.map((s) => [s.id, s.scope])).toEqual([
      ['repo:seat-picking', 'repo'],
      ['user:my-way', 'user'],
      ['user:extra-one', 'user'],
    ]);
    expect(result.skills[0]).toEqual({
      id: 'repo:seat-picking',
      name: 'seat-picking',
      description: 'Pick seats together',
      path: join(cwd, 'skills/seats/SKILL.md'),
      dir: join(cwd, 'skills/seats'),
      scope: 'repo',
      mtime_ms: expect.any(Number),
    });
    expect(result.errors).toEqual([
      { path: join(cwd, 'skills/broken/SKILL.md'), message: expect.stringMatching(/no front matter/) },
      { path: join(cwd, 'skills/half/SKILL.md'), message: expect.stringMatching(/description/) },
      { path: join(cwd, 'no-such-folder'), message: expect.stringMatching(/cannot read/) },
    ]);

    writeSkill(join(cwd, 'skills'), 'later', skill('later', 'Added after the first listing'));
    const cached = await runtime.request('skills.list', {});
    expect(skillIds(cached).length).toBe(3);
    const reloaded = await runtime.request('skills.list', { force_reload: true });
    expect(skillIds(reloaded)).toContain('repo:later');
  });

  it('reads the skills of the repo named by cwd, and refuses a cwd that is not a folder', async () => {
    const cwd = tempDir();
    const other = tempDir();
    writeSkill(join(other, 'skills'), 'a', skill('elsewhere', 'In another repo'));
    const runtime = start([], cwd);
    const response = await runtime.request('skills.list', { cwd: other });
    expect(skillIds(response)).toEqual(['repo:elsewhere']);
    const bad = await runtime.request('skills.list', { cwd: join(other, 'nope') });
    expect(bad.error).toMatchObject({ code: -32602, message: expect.stringMatching(/not a folder/) });
  });
});

describe('model.list and model.set with an OpenAI-compatible service', () => {
  it('lists the service models and switches to one; an unknown one changes nothing', async () => {
    const llm = await startFakeLlm();
    onTestFinished(() => llm.close());
    const cwd = tempDir();
    const runtime = start([], cwd, { USHER_LLM_BASE_URL: llm.baseUrl, USHER_LLM_MODEL: 'fake-model' });
    expect((await runtime.request('model.list', { provider: 'openai' })).result).toEqual({
      provider: 'openai',
      models: ['fake-model', 'fake-model-large'],
    });
    const unknown = await runtime.request('model.set', { provider: 'openai', name: 'gpt-imaginary' });
    expect(unknown.error).toMatchObject({ code: -32602, message: expect.stringMatching(/fake-model-large/) });
    expect((await runtime.request('model.list')).result).toMatchObject({ provider: 'usher', current: 'rules' });

    expect((await runtime.request('model.set', { name: 'fake-model-large' })).result).toEqual({
      provider: 'openai',
      name: 'fake-model-large',
    });
    expect((await runtime.request('model.list')).result).toEqual({
      provider: 'openai',
      models: ['fake-model', 'fake-model-large'],
      current: 'fake-model-large',
    });
    expect((await runtime.request('model.list', { provider: 'usher' })).result).toEqual({
      provider: 'usher',
      models: ['rules'],
    });
  });
});
