/**
 * Last-resort cleanup of what a benchmark leaves behind (child processes, temp folders). Suites
 * stop their children gracefully themselves; these tasks run only for what is still registered
 * when the process exits, however it exits: normally, on an uncaught error, or on Ctrl-C.
 * Tasks are synchronous because an `exit` listener cannot wait.
 */
const tasks = new Set<() => void>();
let installed = false;

function runAll(): void {
  for (const task of [...tasks].reverse()) {
    tasks.delete(task);
    try {
      task();
    } catch (err) {
      console.error(`bench cleanup: ${(err as Error).message}`);
    }
  }
}

function install(): void {
  installed = true;
  process.on('exit', runAll);
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      runAll();
      process.exit(code);
    });
  }
}

/** Registers a task to run at exit; the returned function unregisters it (once it has been done otherwise). */
export function atExit(task: () => void): () => void {
  if (!installed) install();
  tasks.add(task);
  return () => {
    tasks.delete(task);
  };
}
