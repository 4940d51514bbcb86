import type { AgentEvent, RunStatus, TerminalRunStatus } from '@usher/protocol/stdio';
import type { Conversation, RunEngine, RunOutcome, RunQuestions } from '../engine.ts';
import type { SessionFile } from '../sessions/store.ts';
import { messageOf } from './errors.ts';
import type { RpcPeer } from './peer.ts';

export interface StdioRunDeps {
  peer: RpcPeer;
  engine: RunEngine;
  file: SessionFile;
  conversation: Conversation;
  log(line: string): void;
}

/**
 * One run of the stdio door (ui-protocol-stdio §5): numbers its AgentEvents (`seq` 0, 1, 2 …),
 * reports `run.status` (`running` first, `awaiting_ui` while the UI is asked, then exactly one
 * terminal status) and `run.context`, and stores input, events and end in its session file.
 * Once it has ended — cancelled included — nothing more is sent or stored for it.
 */
export class StdioRun {
  private readonly controller = new AbortController();
  private seq = 0;
  private begun = false;
  private ended: TerminalRunStatus | null = null;
  /** Settles when the engine is done with the run (later than its end when it was cancelled). */
  settled: Promise<void> = Promise.resolve();

  constructor(
    readonly id: string,
    readonly text: string,
    private readonly deps: StdioRunDeps,
  ) {
    deps.file.startRun(id, text);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The run's terminal status, or null while it is active. */
  get terminal(): TerminalRunStatus | null {
    return this.ended;
  }

  /** Carries the instruction out with the engine. */
  begin(questions: RunQuestions): void {
    if (this.ended) return;
    this.markBegun();
    this.context();
    const { engine, conversation } = this.deps;
    this.settled = engine
      .run({ text: this.text, conversation, signal: this.signal, emit: (event) => this.event(event), questions })
      .catch((err: unknown): RunOutcome => {
        this.deps.log(`run ${this.id}: the engine failed: ${messageOf(err)}`);
        return { status: 'error', message: messageOf(err), booked: false, toolCalls: 0 };
      })
      .then((outcome) => {
        // The wishes are kept whatever the end, so the next instruction of the session refines them.
        this.deps.file.saveModel(conversation.model);
        this.end(outcome.status, outcome.message);
      });
  }

  /** Stops the run: reports `cancelled` at once and aborts the engine's work. False when it had already ended. */
  cancel(reason?: string): boolean {
    if (this.ended) return false;
    this.markBegun();
    this.end('cancelled', reason ? `cancelled: ${reason}` : 'cancelled');
    this.controller.abort();
    return true;
  }

  /** Waits on the UI with the run in `awaiting_ui`, back to `running` after (unless it ended meanwhile). */
  async waitOnUi<T>(ask: () => Promise<T>): Promise<T> {
    this.status('awaiting_ui');
    try {
      return await ask();
    } finally {
      this.status('running');
    }
  }

  private event(event: AgentEvent): void {
    if (this.ended) return;
    const seq = this.seq++;
    // Stored before it is sent (as the study logs are): whatever the UI has seen, the session holds.
    this.deps.file.event(this.id, seq, event);
    this.deps.peer.notify('agent.event', { run_id: this.id, seq, event });
    if (event.type === 'step_complete') this.context();
  }

  private context(): void {
    if (this.ended) return;
    const left = this.deps.engine.contextLeftPercent();
    this.deps.peer.notify('run.context', {
      run_id: this.id,
      context_left_percent: Math.min(100, Math.max(0, Number.isFinite(left) ? left : 0)),
    });
  }

  private markBegun(): void {
    if (this.begun) return;
    this.begun = true;
    this.status('running');
  }

  private status(status: Exclude<RunStatus, TerminalRunStatus>): void {
    if (this.ended) return;
    this.deps.peer.notify('run.status', { run_id: this.id, status });
  }

  private end(status: TerminalRunStatus, message: string): void {
    if (this.ended) return;
    this.ended = status;
    this.deps.file.end(this.id, status, message);
    // On disk before the UI hears the run is over.
    this.deps.file.sync();
    this.deps.peer.notify('run.status', { run_id: this.id, status, ...(message && { message }) });
  }
}
