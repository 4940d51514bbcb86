import { parentPort } from 'node:worker_threads';
import type { AgentActivity } from '@usher/agent';
import type { AgentHandle } from './agent-spec.ts';
import { runAgent } from './agent-spec.ts';
import { ACTIVITY_EVERY_MS, type FromThread, type ToThread } from './agent-threads.ts';

/*
 * The body of an agent thread (agent-threads.ts): runs the agents the server's thread starts
 * here, and posts back each one's episode records, log lines, activity and result. A scripted
 * mistake waits for the server's thread to acknowledge its study-log record before the agent
 * sends the action that makes it.
 */
const port = parentPort;
if (!port) throw new Error('agent-thread.ts runs in a worker thread');

interface Here {
  handle: AgentHandle;
  /** The activity last posted to the server's thread. */
  told: AgentActivity;
  /** Mistakes waiting for the server's acknowledgement, by number. */
  waiting: Map<number, () => void>;
}

const running = new Map<number, Here>();
const post = (message: FromThread) => port.postMessage(message);
let nextMistake = 1;

/** Posts what each agent is doing when it has changed since last told. */
function tellActivity(id: number): void {
  const here = running.get(id);
  if (!here) return;
  const activity = here.handle.activity;
  if (activity === here.told) return;
  here.told = activity;
  post({ kind: 'activity', id, activity });
}

// Activity changes at no single place in the agent: it is read after each record and control, and
// at a short interval in between. The interval does not keep the thread alive by itself.
setInterval(() => {
  for (const id of running.keys()) tellActivity(id);
}, ACTIVITY_EVERY_MS).unref();

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
        here.handle.hold();
        return tellActivity(message.id);
      case 'release':
        here.handle.release();
        return tellActivity(message.id);
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
      episode: (episode) => {
        post({ kind: 'episode', id, episode });
        tellActivity(id);
      },
      log: (line) => post({ kind: 'log', id, line }),
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
  // The server's thread starts at idle: what differs is posted at once.
  running.set(id, { handle, told: 'idle', waiting });
  tellActivity(id);
  handle.result
    .then(
      (result) => post({ kind: 'done', id, result }),
      (err: unknown) => post({ kind: 'failed', id, message: err instanceof Error ? err.message : String(err) }),
    )
    .finally(() => running.delete(id));
});
