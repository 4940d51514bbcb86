import { Worker } from 'node:worker_threads';
import type { AgentActivity, AgentResult, Episode, MistakeRecord } from '@usher/agent';
import type { AgentHandle, AgentListener, AgentSpec } from './agent-spec.ts';

/** From the server's thread to an agent thread. */
export type ToThread =
  | { kind: 'start'; id: number; spec: AgentSpec }
  | { kind: 'stop' | 'hold' | 'release'; id: number }
  /** The study log holds the mistake's record: the agent may send the action that makes it. */
  | { kind: 'mistake-noted'; id: number; mistake: number };
/** From an agent thread back, in batches: what its agents said in one turn of its event loop, in order. */
export type FromThread =
  | { kind: 'episode'; id: number; episode: Episode }
  | { kind: 'log'; id: number; line: string }
  | { kind: 'activity'; id: number; activity: AgentActivity }
  /** A scripted mistake about to be made; the agent waits for `mistake-noted` with the same number. */
  | { kind: 'mistake'; id: number; mistake: number; record: MistakeRecord }
  | { kind: 'done'; id: number; result: AgentResult }
  | { kind: 'failed'; id: number; message: string };

interface Pending {
  listener: AgentListener;
  /** What the agent is doing, as the thread last said. */
  activity: AgentActivity;
  resolve(result: AgentResult): void;
  reject(err: Error): void;
}

interface Thread {
  worker: Worker;
  agents: Map<number, Pending>;
}

const ENTRY = new URL('./agent-thread-entry.js', import.meta.url);

/**
 * Worker threads that run the study's agents, so that planning and perceiving do not hold up
 * the relay and the HTTP API in the server's thread (each agent still reaches the relay over a
 * WebSocket, as any agent does). A new agent goes to the thread with the fewest; a thread that
 * fails fails its agents (the supervisor restarts them) and is replaced by the next start.
 *
 * Everything an agent in the server's thread does, one in a thread does: the participant's pause
 * and resume reach it as messages, its activity comes back as messages (the handle keeps the
 * latest), and each scripted mistake comes back to the listener, which writes its record in the
 * server's thread before the thread is told to go on and send the action that makes it.
 */
export class AgentThreads {
  private readonly threads: Array<Thread | null>;
  private nextId = 1;
  /** Messages received from the threads, and the records they carried. */
  private readonly received = { messages: 0, records: 0 };

  constructor(
    count: number,
    private readonly log: (line: string) => void,
  ) {
    if (!Number.isInteger(count) || count < 1) throw new Error(`agent threads: ${count} is not a count of threads`);
    this.threads = Array.from({ length: count }, () => null);
  }

  /** Starts the agent of `spec` in a thread. */
  run(spec: AgentSpec, listener: AgentListener): AgentHandle {
    const thread = this.leastBusy();
    const id = this.nextId++;
    let pending: Pending | null = null;
    const result = new Promise<AgentResult>((resolve, reject) => {
      pending = { listener, activity: 'idle', resolve, reject };
      thread.agents.set(id, pending);
    });
    thread.worker.postMessage({ kind: 'start', id, spec } satisfies ToThread);
    const send = (kind: 'stop' | 'hold' | 'release') => {
      if (thread.agents.has(id)) thread.worker.postMessage({ kind, id } satisfies ToThread);
    };
    return {
      result,
      get activity() {
        return thread.agents.has(id) ? ((pending as Pending | null)?.activity ?? 'idle') : 'idle';
      },
      hold: () => send('hold'),
      release: () => send('release'),
      stop: () => send('stop'),
    };
  }

  /** Agents at work in each thread (null: a thread not started, or replaced after it failed). */
  load(): Array<number | null> {
    return this.threads.map((t) => t?.agents.size ?? null);
  }

  /** Messages received from the threads so far, and the records (episodes, log lines, activity, results) in them. */
  traffic(): { messages: number; records: number } {
    return { ...this.received };
  }

  /** Ends every thread; their agents' runs fail. */
  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t?.worker.terminate()));
  }

  private leastBusy(): Thread {
    let best: Thread | null = null;
    for (let i = 0; i < this.threads.length; i++) {
      const thread = this.threads[i] ?? this.spawn(i);
      if (!best || thread.agents.size < best.agents.size) best = thread;
    }
    return best as Thread;
  }

  private spawn(index: number): Thread {
    const worker = new Worker(ENTRY);
    const thread: Thread = { worker, agents: new Map() };
    this.threads[index] = thread;
    // An idle thread does not keep the server's process alive.
    worker.unref();
    worker.on('message', (batch: FromThread[]) => {
      this.received.messages += 1;
      this.received.records += batch.length;
      for (const message of batch) this.take(thread, message);
    });
    const lost = (why: string) => {
      if (this.threads[index] === thread) this.threads[index] = null;
      if (thread.agents.size > 0)
        this.log(`supervisor: agent thread ${index + 1} ${why}; its ${thread.agents.size} agents stopped`);
      for (const pending of thread.agents.values()) pending.reject(new Error(`the agent thread ${why}`));
      thread.agents.clear();
    };
    worker.on('error', (err) => lost(`failed: ${err.message}`));
    worker.on('exit', (code) => lost(`exited (${code})`));
    return thread;
  }

  /** One record from a thread, for the agent it names (one already ended is ignored). */
  private take(thread: Thread, message: FromThread): void {
    const pending = thread.agents.get(message.id);
    if (!pending) return;
    switch (message.kind) {
      case 'episode':
        return pending.listener.episode(message.episode);
      case 'log':
        return pending.listener.log(message.line);
      case 'activity':
        pending.activity = message.activity;
        return pending.listener.activity?.(message.activity);
      case 'mistake':
        return this.noteMistake(thread, message, pending.listener);
      case 'done':
        thread.agents.delete(message.id);
        return pending.resolve(message.result);
      case 'failed':
        thread.agents.delete(message.id);
        return pending.reject(new Error(message.message));
    }
  }

  /** The listener writes the mistake's record; then the agent is told to go on (not before). */
  private noteMistake(
    thread: Thread,
    message: Extract<FromThread, { kind: 'mistake' }>,
    listener: AgentListener,
  ): void {
    const go = () => {
      if (thread.agents.has(message.id))
        thread.worker.postMessage({
          kind: 'mistake-noted',
          id: message.id,
          mistake: message.mistake,
        } satisfies ToThread);
    };
    let noted: void | Promise<void>;
    try {
      noted = listener.mistake(message.record);
    } catch (err) {
      this.log(`supervisor: a scripted mistake could not be noted: ${(err as Error).message}`);
      noted = undefined;
    }
    if (noted instanceof Promise) {
      noted.then(go, (err: unknown) => {
        this.log(
          `supervisor: a scripted mistake could not be noted: ${err instanceof Error ? err.message : String(err)}`,
        );
        go();
      });
    } else go();
  }
}
