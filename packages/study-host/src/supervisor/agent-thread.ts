import { parentPort } from 'node:worker_threads';
import type { AgentActivity } from '@usher/agent';
import type { AgentHandle } from './agent-spec.ts';
import { runAgent } from './agent-spec.ts';
import type { FromThread, ToThread } from './agent-threads.ts';

/*
 * The body of an agent thread (agent-threads.ts): runs the agents the server's thread starts
 * here, and posts back each one's episode records, log lines, activity (told by the agent when it
 * changes) and result. What the agents say in one turn of this thread's event loop goes to the
 * server's thread as one message, in the order they said it. A scripted mistake waits for the
 * server's thread to acknowledge its study-log record before the agent sends the action that
 * makes it.
 */
const port = parentPort;
if (!port) throw new Error('agent-thread.ts runs in a worker thread');

interface Here {
  handle: AgentHandle;
  /** Mistakes waiting for the server's acknowledgement, by number. */
  waiting: Map<number, () => void>;
}

const running = new Map<number, Here>();
let nextMistake = 1;

/** What is said in this turn, in order, posted together once the turn's work is done. */
let batch: FromThread[] = [];
/** Where in {@link batch} each agent's activity is: a later change in the same turn takes its place. */
const activityAt = new Map<number, number>();
/** Each running agent's activity as last posted (the server's thread starts it at idle). */
const posted = new Map<number, AgentActivity>();

function flush(): void {
  // An agent's activity that ends the turn where it began (waiting, idle, waiting) is not posted.
  const sent = batch.filter((m) => m.kind !== 'activity' || m.activity !== (posted.get(m.id) ?? 'idle'));
  for (const m of sent) if (m.kind === 'activity' && running.has(m.id)) posted.set(m.id, m.activity);
  batch = [];
  activityAt.clear();
  if (sent.length > 0) port?.postMessage(sent);
}

function post(message: FromThread): void {
  if (batch.length === 0) setImmediate(flush);
  if (message.kind === 'activity') {
    // The server's thread reads an agent's activity between batches, never within one: only the
    // last value of the turn can be seen there, so it replaces an earlier one of the same turn.
    const at = activityAt.get(message.id);
    if (at !== undefined) {
      batch[at] = message;
      return;
    }
    activityAt.set(message.id, batch.length);
  }
  batch.push(message);
}

port.on('message', (message: ToThread) => {
  if (message.kind !== 'start') {
    const here = running.get(message.id);
    if (!here) return;
    switch (message.kind) {
      case 'stop':
        here.handle.stop();
        // A stopped agent sends nothing more: a mistake still waiting lets its planner end.
        for (const done of here.waiting.values()) done();
        here.waiting.clear();
        return;
      case 'hold':
        return here.handle.hold();
      case 'release':
        return here.handle.release();
      case 'mistake-noted':
        here.waiting.get(message.mistake)?.();
        here.waiting.delete(message.mistake);
        return;
    }
    return;
  }
  const { id, spec } = message;
  const waiting = new Map<number, () => void>();
  let handle: AgentHandle;
  try {
    handle = runAgent(spec, {
      episode: (episode) => post({ kind: 'episode', id, episode }),
      log: (line) => post({ kind: 'log', id, line }),
      activity: (activity) => post({ kind: 'activity', id, activity }),
      mistake: (record) =>
        new Promise<void>((resolve) => {
          const mistake = nextMistake++;
          waiting.set(mistake, resolve);
          post({ kind: 'mistake', id, mistake, record });
        }),
    });
  } catch (err) {
    post({ kind: 'failed', id, message: (err as Error).message });
    return;
  }
  running.set(id, { handle, waiting });
  handle.result
    .then(
      (result) => post({ kind: 'done', id, result }),
      (err: unknown) => post({ kind: 'failed', id, message: err instanceof Error ? err.message : String(err) }),
    )
    .finally(() => {
      running.delete(id);
      posted.delete(id);
    });
});
