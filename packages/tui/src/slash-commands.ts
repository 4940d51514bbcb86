import type { ClientMethod, ClientParams, ClientResult, ServerResult } from '@usher/protocol/stdio';
import { errorMessage } from './client.ts';
import { COMMANDS, type Command } from './commands.ts';
import type { RuntimeDiagnostics, TuiSnapshot } from './controller.ts';
import { counted } from './format.ts';
import type { UiRequest } from './protocol.ts';
import { type EntryInput, isActive, type Tone } from './state.ts';

/** What a slash command may do to the screen and ask of the runtime. */
export interface CommandHost {
  request<M extends ClientMethod>(
    method: M,
    params: ClientParams<M>,
    options?: { timeoutMs?: number },
  ): Promise<ClientResult<M>>;
  runtime?: RuntimeDiagnostics;
  snapshot(): TuiSnapshot;
  show(...entries: EntryInput[]): void;
  /** Continues `sessionId` from the next instruction on (null: a new session); the status line goes idle. */
  switchSession(sessionId: string | null): void;
  /** Asks the operator with a dialog of the UI's own. */
  choose(request: UiRequest): Promise<unknown>;
  replayHistory(sessionId: string): Promise<void>;
  cancelRun(): boolean;
  quit(): void;
}

/** Carries out a slash command; what goes wrong is shown, never thrown. */
export async function runCommand(host: CommandHost, command: Command): Promise<void> {
  try {
    await carryOut(host, command);
  } catch (err) {
    host.show({ kind: 'error', text: `/${command.name}: ${errorMessage(err)}` });
  }
}

async function carryOut(host: CommandHost, command: Command): Promise<void> {
  const caps = host.snapshot().connection.capabilities;
  switch (command.name) {
    case 'help':
      host.show(
        { kind: 'heading', text: 'Commands' },
        ...COMMANDS.map((c) => row([c.usage, 'accent'], [c.says])),
        { kind: 'heading', text: 'Keys' },
        row(['Enter', 'accent'], ['send the instruction or command']),
        row(['Esc', 'accent'], ['cancel the running run; in a dialog: dismiss it']),
        row(['Ctrl-C', 'accent'], ['cancel the running run; again (or when idle) quit']),
        row(['y / n', 'accent'], ['answer a confirmation; ←/→ and Enter choose too']),
        row(['↑ / ↓', 'accent'], ['move in a list; Space ticks in a multiple choice']),
      );
      return;
    case 'quit':
      host.quit();
      return;
    case 'cancel':
      if (!host.cancelRun()) host.show({ kind: 'notice', text: 'no run is in progress' });
      return;
    case 'log':
      showLog(host);
      return;
    case 'new':
      if (isActive(host.snapshot().view.run?.phase)) {
        host.show({ kind: 'notice', text: 'a run is in progress: cancel it (Esc) before starting a new session' });
        return;
      }
      host.switchSession(null);
      host.show({ kind: 'notice', text: 'new session: the next instruction starts it' });
      return;
    case 'sessions':
      await resumeSession(host);
      return;
    case 'history': {
      const { sessionId } = host.snapshot();
      if (!sessionId) {
        host.show({ kind: 'notice', text: 'no session yet: give an instruction, or pick one with /sessions' });
        return;
      }
      await host.replayHistory(sessionId);
      return;
    }
    case 'model':
      await model(host, command.set);
      return;
    case 'mcp':
      if (caps.supports_mcp_list === false) {
        host.show({ kind: 'notice', text: 'MCP status unavailable' });
        return;
      }
      await listMcp(host);
      return;
    case 'skills':
      if (caps.supports_skills_list === false) {
        host.show({ kind: 'notice', text: 'Skills list unavailable' });
        return;
      }
      await listSkills(host, command.filter);
      return;
  }
}

function showLog(host: CommandHost): void {
  const runtime = host.runtime;
  if (!runtime) {
    host.show({ kind: 'notice', text: 'the runtime was not started by this UI: it has no log here' });
    return;
  }
  const tail = runtime.stderrTail(20);
  host.show(
    { kind: 'heading', text: `Runtime log · ${runtime.logFile}` },
    ...(tail.length > 0
      ? tail.map((line) => row([line, 'dim']))
      : [{ kind: 'notice', text: 'the runtime has written nothing to stderr' } as EntryInput]),
  );
}

async function resumeSession(host: CommandHost): Promise<void> {
  if (isActive(host.snapshot().view.run?.phase)) {
    host.show({ kind: 'notice', text: 'a run is in progress: sessions can be switched once it ends' });
    return;
  }
  const { sessions } = await host.request('session.list', { limit: 20 });
  if (sessions.length === 0) {
    host.show({ kind: 'notice', text: 'no saved sessions yet' });
    return;
  }
  const picked = (await host.choose({
    method: 'ui.pick.request',
    params: {
      title: 'Resume a session',
      items: sessions.map((s) => ({
        id: s.session_id,
        label: s.last_user_message ?? s.session_id,
        detail: [s.session_id, s.updated_at, s.message_count !== undefined && counted(s.message_count, 'message')]
          .filter(Boolean)
          .join(' · '),
      })),
    },
  })) as ServerResult<'ui.pick.request'>;
  const sessionId = picked.ids[0];
  if (!sessionId) return;
  host.switchSession(sessionId);
  await host.replayHistory(sessionId);
}

async function model(host: CommandHost, set: { provider?: string; name: string } | undefined): Promise<void> {
  if (set) {
    const chosen = await host.request('model.set', set);
    host.show({ kind: 'notice', text: `planner: ${chosen.provider}/${chosen.name}` });
    return;
  }
  const current = await host.request('model.list', {});
  const lists = [current];
  // The spec's default provider; listed too, so the operator sees what /model can switch to.
  if (current.provider !== 'openai') lists.push(await host.request('model.list', { provider: 'openai' }));
  host.show({ kind: 'heading', text: 'Planners · /model <provider>/<name> switches' });
  for (const list of lists) {
    if (list.error) host.show(row([list.provider, 'accent'], [list.error, 'error']));
    if (list.models.length === 0) {
      host.show(row([list.provider, 'accent'], ['none configured', 'dim']));
      continue;
    }
    for (const name of list.models) {
      const isCurrent = list.provider === current.provider && name === current.current;
      host.show(row([list.provider, 'accent'], [name], isCurrent ? ['current', 'ok'] : ['']));
    }
  }
}

async function listMcp(host: CommandHost): Promise<void> {
  const { servers, errors = [] } = await host.request('mcp.list', { scope: 'loaded' });
  const configErrors = errors.map((e) => row([e.path, 'error'], [e.message, 'error']));
  if (servers.length === 0) {
    host.show({ kind: 'notice', text: 'no MCP servers configured' }, ...configErrors);
    return;
  }
  const tones: Record<string, Tone> = { ready: 'ok', error: 'error', connecting: 'warn', disabled: 'dim' };
  host.show(
    { kind: 'heading', text: 'MCP servers' },
    ...servers.map((s) =>
      row(
        [s.id, 'accent'],
        [`${s.transport}${s.source ? ` · ${s.source}` : ''}`, 'dim'],
        [s.state, tones[s.state] ?? 'dim'],
        [s.tools !== undefined ? `${s.tools} tools` : ''],
        [s.last_error ?? '', 'error'],
      ),
    ),
    ...configErrors,
  );
}

async function listSkills(host: CommandHost, filter: string | undefined): Promise<void> {
  const list = await host.request('skills.list', {});
  const needle = filter?.toLowerCase();
  const skills = needle
    ? list.skills.filter((s) => `${s.name} ${s.description} ${s.scope}`.toLowerCase().includes(needle))
    : list.skills;
  host.show(
    {
      kind: 'heading',
      text: `Skills${filter ? ` matching "${filter}"` : ''} · ${skills.length} of ${list.skills.length}`,
    },
    ...skills.map((s) => row([s.name, 'accent'], [s.scope, 'dim'], [s.description])),
    ...list.errors.map((e) => row([e.path, 'error'], [e.message, 'error'])),
  );
  if (list.truncated) host.show({ kind: 'notice', text: 'the list was cut short by the runtime' });
}

function row(...cells: Array<[string, Tone?] | [string]>): EntryInput {
  return { kind: 'row', cells: cells.map(([text, tone]) => (tone ? { text, tone } : { text })) };
}
