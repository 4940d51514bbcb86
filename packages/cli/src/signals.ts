/**
 * Resolves at the first SIGINT or SIGTERM, for a command that then closes what it holds and
 * exits. Call it before printing that the command is ready: a supervisor (or a test) may send
 * the signal as soon as it reads that line, and a signal that finds no listener kills the process
 * before it closes its logs.
 *
 * A second signal while the command closes quits at once (exit 130 for SIGINT, 143 for SIGTERM),
 * as a person pressing Ctrl-C again expects: a close that hangs (a peer that never answers, a
 * slow disk) cannot hold the terminal. Study logs stay valid: every record is written whole
 * before it is forwarded, the same guarantee that holds when the process is killed.
 */
export function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (!stopping) {
        stopping = true;
        resolve(signal);
        return;
      }
      process.stderr.write(`${signal} again: quitting without waiting for the close to finish\n`);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
