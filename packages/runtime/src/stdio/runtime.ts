import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import {
  CLIENT_REQUESTS,
  type ClientMethod,
  type ClientParams,
  type ClientResult,
  PROTOCOL_VERSION,
  type UiCapabilities,
  type UiContext,
} from '@usher/protocol/stdio';
import type { Conversation, RunEngine, RunQuestions } from '../engine.ts';
import type { McpRegistry } from '../mcp/registry.ts';
import { planReplay } from '../sessions/history.ts';
import type { SessionFile, SessionStore } from '../sessions/store.ts';
import type { SkillCatalog } from '../skills/catalog.ts';
import { parseParams, RpcError } from './errors.ts';
import type { PlannerChoice } from './models.ts';
import { type Handler, RpcPeer } from './peer.ts';
import { StdioRun } from './run.ts';
import { UiRequests } from './ui-requests.ts';

export interface StdioRuntimeOptions {
  input: Readable;
  output: Writable;
  engine: RunEngine;
  sessions: SessionStore;
  planners: PlannerChoice;
  mcp: McpRegistry;
  skills: SkillCatalog;
  /** `initialize`'s `server.version`. */
  version: string;
  /** The repo whose `skills/` folder `skills.list` reads when the UI names none. */
  cwd: string;
  /** How long a `ui.*` request waits for the UI; default 5 minutes. */
  uiTimeoutMs?: number;
  /** Longest accepted line; default 1 MiB. */
  maxLineBytes?: number;
  log(line: string): void;
}

export const DEFAULT_UI_TIMEOUT_MS = 5 * 60_000;
export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;

/**
 * The runtime's side of the stdio protocol (ui-protocol-stdio.ja.md, DESIGN.md "ui-protocol
 * (stdio) decisions"): one run at a time on the engine, sessions persisted and replayed, the
 * planner, MCP servers and skills listed, and the UI asked to confirm, prompt or pick when it can.
 */
export class StdioRuntime {
  private readonly peer: RpcPeer;
  private readonly ui: UiRequests;
  private capabilities: UiCapabilities = {};
  private uiContext: UiContext = {};
  private active: StdioRun | null = null;
  private readonly runs = new Map<string, StdioRun>();
  private readonly conversations = new Map<string, Conversation>();

  constructor(private readonly options: StdioRuntimeOptions) {
    this.peer = new RpcPeer({
      input: options.input,
      output: options.output,
      maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      log: options.log,
    });
    this.ui = new UiRequests(
      this.peer,
      () => this.capabilities,
      options.uiTimeoutMs ?? DEFAULT_UI_TIMEOUT_MS,
      options.log,
    );
    this.method('initialize', (params) => this.initialize(params));
    this.method('run.start', (params, context) => this.startRun(params, context.afterResponse));
    this.method('run.cancel', (params) => this.cancelRun(params.run_id, params.reason));
    this.method('session.list', (params) => ({ sessions: options.sessions.list(params.limit ?? 50) }));
    this.method('session.history', (params) => this.replay(params));
    this.method('model.list', (params) => options.planners.list(params.provider));
    this.method('model.set', (params) => options.planners.set(params.name, params.provider));
    this.method('mcp.list', (params) => {
      const errors = options.mcp.errors;
      return { servers: options.mcp.list(params.scope), ...(errors.length > 0 && { errors }) };
    });
    this.method('skills.list', (params) => options.skills.list(this.repoRoot(params.cwd), params.force_reload));
    this.method('ui.context.update', (params) => {
      this.uiContext = params;
      return { ok: true as const };
    });
  }

  /** The typed questions to the UI (for whoever runs instructions here). */
  get questions(): UiRequests {
    return this.ui;
  }

  /** Starts reading requests; resolves once the input has ended, the active run is cancelled and everything is written. */
  async serve(): Promise<void> {
    this.peer.start();
    await this.peer.ended;
    await this.stop('the UI closed the connection');
  }

  /** Cancels the active run, waits for the engine to let go of it, and flushes the output. */
  async stop(reason: string): Promise<void> {
    const run = this.active;
    if (run) {
      run.cancel(reason);
      await run.settled;
    }
    await this.peer.flushed();
  }

  private method<M extends ClientMethod>(
    name: M,
    handler: (params: ClientParams<M>, context: Parameters<Handler>[1]) => ClientResult<M> | Promise<ClientResult<M>>,
  ): void {
    const schema = CLIENT_REQUESTS[name].params;
    this.peer.handle(name, (raw, context) => handler(parseParams(schema, raw) as ClientParams<M>, context));
  }

  private initialize(params: ClientParams<'initialize'>): ClientResult<'initialize'> {
    this.capabilities = params.ui_capabilities ?? {};
    const { name, version } = params.client;
    this.options.log(`stdio: ${name} ${version} connected (protocol ${params.protocol_version})`);
    if (params.protocol_version !== PROTOCOL_VERSION) {
      this.options.log(
        `stdio: the client asked for protocol ${params.protocol_version}; this runtime speaks ${PROTOCOL_VERSION}`,
      );
    }
    return {
      protocol_version: PROTOCOL_VERSION,
      server: { name: 'usher-runtime', version: this.options.version },
      server_capabilities: {
        supports_run_cancel: true,
        supports_ui_requests: true,
        supports_mcp_list: true,
        supports_skills_list: true,
      },
    };
  }

  private startRun(params: ClientParams<'run.start'>, afterResponse: (task: () => void) => void) {
    if (this.active && !this.active.terminal) throw RpcError.busy(this.active.id);
    let file: SessionFile;
    if (params.session_id !== undefined) {
      const resumed = this.options.sessions.resume(params.session_id);
      if (!resumed) throw RpcError.invalidParams(`session_id: no session "${params.session_id}" to resume`);
      file = resumed;
    } else {
      file = this.options.sessions.create();
    }
    if (params.ui_context) this.uiContext = params.ui_context;
    let conversation = this.conversations.get(file.id);
    if (!conversation) {
      conversation = { id: file.id, model: file.session.model };
      this.conversations.set(file.id, conversation);
    }
    const run = new StdioRun(`run-${randomUUID()}`, params.input.text, {
      peer: this.peer,
      engine: this.options.engine,
      file,
      conversation,
      log: this.options.log,
    });
    this.runs.set(run.id, run);
    this.active = run;
    // The run's notifications follow the result that names it.
    afterResponse(() => run.begin(this.questionsFor(run)));
    return { run_id: run.id, session_id: file.id };
  }

  /** What the run may ask the UI: only what the UI said it supports (read when the run starts). */
  private questionsFor(run: StdioRun): RunQuestions {
    const questions: RunQuestions = {};
    if (this.ui.supports('ui.confirm.request')) {
      questions.confirm = (q) =>
        run.waitOnUi(() =>
          this.ui.confirm(run, {
            ...q,
            confirm_label: 'Book',
            cancel_label: 'Do not book',
            danger_level: 'danger',
          }),
        );
    }
    if (this.ui.supports('ui.prompt.request')) {
      questions.prompt = (q) => run.waitOnUi(() => this.ui.prompt(run, q));
    }
    if (this.ui.supports('ui.pick.request')) {
      questions.pick = (q) => run.waitOnUi(() => this.ui.pick(run, q));
    }
    return questions;
  }

  private cancelRun(runId: string, reason?: string): ClientResult<'run.cancel'> {
    const run = this.runs.get(runId);
    if (!run) throw RpcError.runNotFound(runId);
    if (run.cancel(reason)) return { ok: true, status: 'cancelled' };
    return { ok: false, status: run.terminal ?? 'cancelled' };
  }

  private replay(params: ClientParams<'session.history'>): ClientResult<'session.history'> {
    const session = this.options.sessions.read(params.session_id);
    if (!session) throw RpcError.invalidParams(`session_id: no session "${params.session_id}"`);
    const replay = planReplay(session.runs, params.max_runs ?? 20, params.max_events ?? 1500);
    for (const run of replay.runs) {
      this.peer.notify('agent.event', {
        run_id: run.runId,
        seq: -1,
        event: { type: 'hidden_user_message', content: run.text },
      });
      for (const record of run.events) {
        this.peer.notify('agent.event', { run_id: run.runId, seq: record.seq, event: record.event });
      }
    }
    return { runs: replay.runs.length, events_sent: replay.eventCount, ...(replay.truncated && { truncated: true }) };
  }

  /** The repo folder for `skills.list`: the UI's `cwd` (relative to the runtime's), else the runtime's own. */
  private repoRoot(cwd: string | undefined): string {
    const root = resolve(this.options.cwd, cwd ?? this.uiContext.cwd ?? '.');
    let isDir = false;
    try {
      isDir = statSync(root).isDirectory();
    } catch {}
    if (!isDir) throw RpcError.invalidParams(`cwd: ${root} is not a folder`);
    return root;
  }
}
