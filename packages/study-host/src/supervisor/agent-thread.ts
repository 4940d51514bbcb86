import { parentPort } from 'node:worker_threads';
import type { AgentHandle } from './agent-spec.ts';
import { runAgent } from './agent-spec.ts';
import type { FromThread, ToThread } from './agent-threads.ts';

/*
 * The body of an agent thread (agent-threads.ts): runs the agents the server's thread starts
 * here, and posts back each one's episode records, log lines and result.
 */
const port = parentPort;
if (!port) throw new Error('agent-thread.ts runs in a worker thread');
const running = new Map<number, AgentHandle>();
const post = (message: FromThread) => port.postMessage(message);

port.on('message', (message: ToThread) => {
  if (message.kind === 'stop') {
    running.get(message.id)?.stop();
    return;
  }
  const { id, spec } = message;
  let handle: AgentHandle;
  try {
    handle = runAgent(spec, {
      episode: (episode) => post({ kind: 'episode', id, episode }),
      log: (line) => post({ kind: 'log', id, line }),
    });
  } catch (err) {
    post({ kind: 'failed', id, message: (err as Error).message });
    return;
  }
  running.set(id, handle);
  handle.result
    .then(
      (result) => post({ kind: 'done', id, result }),
      (err: unknown) => post({ kind: 'failed', id, message: err instanceof Error ? err.message : String(err) }),
    )
    .finally(() => running.delete(id));
});
