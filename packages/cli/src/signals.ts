/**
 * Resolves at the first SIGINT or SIGTERM, for a command that then closes what it holds and
 * exits. Call it before printing that the command is ready: a supervisor (or a test) may send
 * the signal as soon as it reads that line, and a signal that finds no listener kills the process
 * before it closes its logs.
 */
export function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    process.on('SIGINT', resolve);
    process.on('SIGTERM', resolve);
  });
}
