import { Worker } from 'node:worker_threads';
import type { AgentResult, Episode } from '@usher/agent';
import type { AgentHandle, AgentListener, AgentSpec } from './agent-spec.ts';

/** From the server's thread to an agent thread. */
export type ToThread = { kind: 'start'; id: number; spec: AgentSpec } | { kind: 'stop'; id: number };
/** From an agent thread back. */
export type FromThread =
  | { kind: 'episode'; id: number; episode: Episode }
  | { kind: 'log'; id: number; line: string }
  | { kind: 'done'; id: number; result: AgentResult }
  | { kind: 'failed'; id: number; message: string };

interface Pending {
  listener: AgentListener;
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
 */
export class AgentThreads {
  private readonly threads: Array<Thread | null>;
  private nextId = 1;

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
    const result = new Promise<AgentResult>((resolve, reject) => {
      thread.agents.set(id, { listener, resolve, reject });
    });
    thread.worker.postMessage({ kind: 'start', id, spec } satisfies ToThread);
    return {
      result,
      stop: () => {
        if (thread.agents.has(id)) thread.worker.postMessage({ kind: 'stop', id } satisfies ToThread);
      },
    };
  }

  /** Agents at work in each thread (null: a thread not started, or replaced after it failed). */
  load(): Array<number | null> {
    return this.threads.map((t) => t?.agents.size ?? null);
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
    worker.on('message', (message: FromThread) => {
      const pending = thread.agents.get(message.id);
      if (!pending) return;
      switch (message.kind) {
        case 'episode':
          return pending.listener.episode(message.episode);
        case 'log':
          return pending.listener.log(message.line);
        case 'done':
          thread.agents.delete(message.id);
          return pending.resolve(message.result);
        case 'failed':
          thread.agents.delete(message.id);
          return pending.reject(new Error(message.message));
      }
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
}
