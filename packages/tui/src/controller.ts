import type { Readable, Writable } from 'node:stream';
import { RpcErrorCode, type ServerCapabilities, type ServerMethod, type ServerResult } from '@usher/protocol/stdio';
import { errorMessage, type IncomingUiRequest, RpcError, RuntimeClient } from './client.ts';
import { parseInput } from './commands.ts';
import { counted } from './format.ts';
import { dismissedAnswer, type RuntimeNotification, type UiRequest } from './protocol.ts';
import type { RuntimeExit } from './runtime-process.ts';
import { type CommandHost, runCommand } from './slash-commands.ts';
import {
  append,
  applyNotification,
  cancelRequested,
  type EntryInput,
  flushHeld,
  initialState,
  isActive,
  runFailedToStart,
  runRequested,
  runStarted,
  type ViewState,
} from './state.ts';

/** A dialog on screen: a runtime→UI request, or a choice the UI asks for itself (resuming a session). */
export interface Dialog {
  key: number;
  request: UiRequest;
  /** Set for the runtime's requests: withdrawn when their run ends. */
  runId?: string;
}

export interface Connection {
  state: 'connecting' | 'ready' | 'closed';
  server?: { name: string; version: string };
  capabilities: ServerCapabilities;
}

/** Everything the screen renders; a new object after every change. */
export interface TuiSnapshot {
  view: ViewState;
  connection: Connection;
  sessionId: string | null;
  /** The dialog in front; others wait behind it. */
  dialog: Dialog | null;
  /** A one-line hint under the status line (`Ctrl-C again to quit`). */
  hint: string | null;
  quitting: boolean;
}

/** The runtime's process as the controller sees it: for `/log` and for saying why it went away. */
export interface RuntimeDiagnostics {
  logFile: string;
  stderrTail(lines?: number): string[];
  exited: Promise<RuntimeExit>;
}

export interface TuiControllerOptions {
  /** The runtime's stdout and stdin. */
  input: Readable;
  output: Writable;
  /** This UI's version, sent in `initialize`. */
  version: string;
  runtime?: RuntimeDiagnostics;
  requestTimeoutMs?: number;
}

/**
 * The terminal UI's state and behaviour, outside React: it owns the protocol client, turns what
 * the runtime sends into a {@link TuiSnapshot}, and carries out what the operator types. The Ink
 * components subscribe to it and call its methods; key handlers read its current state, so two
 * keys in one tick (Enter, then Esc) act in order.
 */
export class TuiController {
  private snapshot: TuiSnapshot = {
    view: initialState(),
    connection: { state: 'connecting', capabilities: {} },
    sessionId: null,
    dialog: null,
    hint: null,
    quitting: false,
  };
  private readonly listeners = new Set<() => void>();
  private readonly dialogs: Array<Dialog & { answer(result: unknown): void }> = [];
  private readonly client: RuntimeClient;
  private dialogKeys = 0;
  private readonly cancelSent = new Set<string>();
  private replaying = false;
  private readonly quitListeners = new Set<() => void>();
  /** What the slash commands may use. */
  private readonly commandHost: CommandHost;

  constructor(private readonly options: TuiControllerOptions) {
    this.client = new RuntimeClient({
      input: options.input,
      output: options.output,
      ...(options.requestTimeoutMs !== undefined && { timeoutMs: options.requestTimeoutMs }),
      onNotification: (n) => this.onNotification(n),
      onProblem: (message) => this.show({ kind: 'error', text: message }),
      onUiRequest: (request) => this.ask(request),
      onClose: () => void this.onRuntimeGone(),
    });
    this.commandHost = {
      request: (method, params, options) => this.client.request(method, params, options),
      ...(options.runtime && { runtime: options.runtime }),
      snapshot: () => this.snapshot,
      show: (...entries) => this.show(...entries),
      switchSession: (sessionId) => {
        this.update({ sessionId });
        this.setView({ ...this.snapshot.view, run: null });
      },
      choose: (request) => this.openDialog(request),
      replayHistory: (sessionId) => this.replayHistory(sessionId),
      cancelRun: () => this.cancelRun(),
      quit: () => this.quit(),
    };
  }

  // ---- for React (useSyncExternalStore) ----

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): TuiSnapshot => this.snapshot;

  /** Called once the operator quits (`/quit`, Ctrl-C when idle, a second Ctrl-C). */
  onQuit(listener: () => void): void {
    this.quitListeners.add(listener);
  }

  // ---- lifecycle ----

  /** Says hello to the runtime; the screen says whether it worked. */
  async start(): Promise<void> {
    try {
      const hello = await this.client.initialize(this.options.version);
      this.update({
        connection: {
          state: 'ready',
          server: { name: hello.server.name, version: hello.server.version },
          capabilities: hello.server_capabilities ?? {},
        },
      });
      this.show({
        kind: 'notice',
        text: `connected to ${hello.server.name} ${hello.server.version} · /help lists the commands`,
      });
    } catch (err) {
      this.show({ kind: 'error', text: `cannot start the runtime: ${errorMessage(err)}` });
    }
  }

  // ---- what the operator does ----

  /** A line from the input: an instruction or a slash command. */
  submit(line: string): void {
    const input = parseInput(line);
    this.update({ hint: null });
    switch (input.kind) {
      case 'empty':
        return;
      case 'invalid':
        this.show({ kind: 'error', text: input.message });
        return;
      case 'instruction':
        void this.startRun(input.text);
        return;
      case 'command':
        void runCommand(this.commandHost, input.command);
        return;
    }
  }

  /** Esc, `/cancel`: asks the runtime to cancel the live run. Returns false when no run is in progress. */
  cancelRun(): boolean {
    const run = this.snapshot.view.run;
    if (!run || !isActive(run.phase)) return false;
    if (run.phase !== 'cancelling') this.setView(cancelRequested(this.snapshot.view));
    this.sendPendingCancel();
    return true;
  }

  /** Ctrl-C: the first cancels a run in progress, a second (or one when idle) quits. */
  interrupt(): void {
    const run = this.snapshot.view.run;
    if (run && isActive(run.phase) && run.phase !== 'cancelling') {
      this.cancelRun();
      this.update({ hint: 'cancelling the run · Ctrl-C again to quit' });
      return;
    }
    this.quit();
  }

  quit(): void {
    if (this.snapshot.quitting) return;
    for (const dialog of this.dialogs.splice(0)) dialog.answer(dismissedAnswer(dialog.request.method));
    this.update({ quitting: true, dialog: null });
    for (const listener of this.quitListeners) listener();
  }

  /** The operator answered the dialog in front. */
  answer<M extends ServerMethod>(key: number, result: ServerResult<M>): void {
    const index = this.dialogs.findIndex((d) => d.key === key);
    if (index === -1) return;
    const [dialog] = this.dialogs.splice(index, 1);
    dialog?.answer(result);
    this.update({ dialog: this.dialogs[0] ?? null });
  }

  // ---- runs ----

  private async startRun(text: string): Promise<void> {
    if (this.snapshot.connection.state !== 'ready') {
      this.show({ kind: 'error', text: 'the runtime is not connected: see /log' });
      return;
    }
    if (isActive(this.snapshot.view.run?.phase)) {
      this.show({ kind: 'notice', text: 'a run is in progress: wait for it to end, or cancel it with Esc' });
      return;
    }
    this.setView(runRequested(this.snapshot.view, text));
    const sessionId = this.snapshot.sessionId;
    try {
      const started = await this.client.request('run.start', {
        input: { type: 'text', text },
        ...(sessionId && { session_id: sessionId }),
      });
      if (started.session_id) this.update({ sessionId: started.session_id });
      this.setView(runStarted(this.snapshot.view, started.run_id));
      this.sendPendingCancel();
    } catch (err) {
      const message =
        err instanceof RpcError && err.code === RpcErrorCode.Busy
          ? `the runtime is busy with another run: ${err.message}`
          : `the run did not start: ${errorMessage(err)}`;
      this.setView(runFailedToStart(this.snapshot.view, message));
    }
  }

  /** Sends run.cancel once the live run has an id and a cancel is wanted. */
  private sendPendingCancel(): void {
    const run = this.snapshot.view.run;
    if (!run?.id || run.phase !== 'cancelling' || this.cancelSent.has(run.id)) return;
    const runId = run.id;
    this.cancelSent.add(runId);
    this.client.request('run.cancel', { run_id: runId, reason: 'cancelled by the operator' }).then(
      (result) => {
        // The run had already ended: its terminal status (already shown or on its way) says how.
        if (!result.ok && result.status)
          this.show({ kind: 'notice', text: `the run had already ended (${result.status})` });
      },
      (err: unknown) => this.show({ kind: 'error', text: `cannot cancel the run: ${errorMessage(err)}` }),
    );
  }

  private onNotification(notification: RuntimeNotification): void {
    if (this.replaying && notification.method === 'agent.event') {
      this.setView(applyNotification(this.snapshot.view, replayed(notification)));
      return;
    }
    const before = this.snapshot.view.run;
    this.setView(applyNotification(this.snapshot.view, notification));
    this.sendPendingCancel();
    if (
      notification.method === 'run.status' &&
      ['completed', 'error', 'cancelled'].includes(notification.params.status)
    ) {
      this.withdrawDialogs(notification.params.run_id);
      if (before?.id === notification.params.run_id) this.update({ hint: null });
    }
  }

  /** The runtime stopped waiting for these dialogs (their run ended): close them. */
  private withdrawDialogs(runId: string): void {
    const withdrawn = this.dialogs.filter((d) => d.runId === runId);
    if (withdrawn.length === 0) return;
    for (const dialog of withdrawn) {
      this.dialogs.splice(this.dialogs.indexOf(dialog), 1);
      dialog.answer(dismissedAnswer(dialog.request.method));
    }
    this.update({ dialog: this.dialogs[0] ?? null });
  }

  private ask(request: IncomingUiRequest): Promise<unknown> {
    const runId = request.params.run_id;
    // A question about a run that has ended can no longer matter: it is dismissed at once.
    if (runId !== undefined && this.snapshot.view.trackers.get(runId)?.ended) {
      return Promise.resolve(dismissedAnswer(request.method));
    }
    return this.openDialog({ method: request.method, params: request.params } as UiRequest, runId);
  }

  private openDialog(request: UiRequest, runId?: string): Promise<unknown> {
    return new Promise((resolve) => {
      this.dialogKeys += 1;
      this.dialogs.push({ key: this.dialogKeys, request, ...(runId && { runId }), answer: resolve });
      this.update({ dialog: this.dialogs[0] ?? null });
    });
  }

  private async onRuntimeGone(): Promise<void> {
    for (const dialog of this.dialogs.splice(0)) dialog.answer(dismissedAnswer(dialog.request.method));
    this.update({ connection: { ...this.snapshot.connection, state: 'closed' }, dialog: null });
    if (this.snapshot.quitting) return;
    const exit = this.options.runtime ? await this.options.runtime.exited : null;
    const how = !exit
      ? 'the runtime closed the connection'
      : exit.error
        ? `the runtime could not start: ${exit.error}`
        : `the runtime exited (${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`})`;
    const run = this.snapshot.view.run;
    if (run && isActive(run.phase)) {
      this.setView({ ...this.snapshot.view, run: { ...run, phase: 'error', message: how } });
    }
    const tail = this.options.runtime?.stderrTail(5) ?? [];
    this.show(
      { kind: 'error', text: `${how}; /log shows its output, /quit leaves` },
      ...tail.map((line) => ({ kind: 'row', cells: [{ text: line, tone: 'dim' }] }) as EntryInput),
    );
  }

  /** Replays a session's runs into the transcript (spec §5.5); the live run is left alone. */
  async replayHistory(sessionId: string): Promise<void> {
    if (isActive(this.snapshot.view.run?.phase)) {
      this.show({ kind: 'notice', text: 'a run is in progress: its history can be replayed once it ends' });
      return;
    }
    this.show({ kind: 'heading', text: `History of session ${sessionId}` });
    this.replaying = true;
    try {
      const done = await this.client.request(
        'session.history',
        { session_id: sessionId, max_runs: 20, max_events: 1500 },
        { timeoutMs: 120_000 },
      );
      this.show({
        kind: 'notice',
        text: `end of history: ${counted(done.runs, 'run')}, ${counted(done.events_sent, 'event')}${done.truncated ? ' (older ones left out)' : ''}`,
      });
    } finally {
      this.replaying = false;
    }
  }

  // ---- state ----

  private show(...entries: EntryInput[]): void {
    this.setView(append(flushHeld(this.snapshot.view), ...entries));
  }

  private setView(view: ViewState): void {
    this.update({ view });
  }

  private update(patch: Partial<TuiSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const listener of this.listeners) listener();
  }
}

/** A replayed event keeps its run apart from live runs (a replay may include runs of this very screen). */
function replayed(notification: RuntimeNotification & { method: 'agent.event' }): RuntimeNotification {
  return { method: 'agent.event', params: { ...notification.params, run_id: `history:${notification.params.run_id}` } };
}
