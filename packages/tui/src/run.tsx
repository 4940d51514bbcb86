// @jsxRuntime automatic
// @jsxImportSource react
import { render } from 'ink';
import { TuiController } from './controller.ts';
import { RuntimeProcess } from './runtime-process.ts';
import { App } from './ui/app.tsx';

export interface RunTuiOptions {
  /** The runtime's command line as argv, e.g. `[node, usher.js, 'runtime', '--stdio']`. */
  command: string[];
  /** Where the runtime's stderr goes. */
  logFile: string;
  /** This UI's version, sent in `initialize`. */
  version: string;
}

/**
 * Runs the terminal UI on this process's terminal until the operator quits: spawns the runtime,
 * renders the app, and on the way out stops the runtime (stdin closed, then signals).
 */
export async function runTui(options: RunTuiOptions): Promise<void> {
  const runtime = new RuntimeProcess(options.command, options.logFile);
  const controller = new TuiController({
    input: runtime.input,
    output: runtime.output,
    version: options.version,
    runtime: { logFile: options.logFile, stderrTail: (n) => runtime.stderrTail(n), exited: runtime.exited },
  });
  const quit = new Promise<void>((resolve) => controller.onQuit(resolve));
  const leave = () => controller.quit();
  process.on('SIGTERM', leave);
  process.on('SIGHUP', leave);
  const ink = render(<App controller={controller} />, { exitOnCtrlC: false });
  void controller.start();
  try {
    await quit;
    await runtime.stop();
  } finally {
    process.off('SIGTERM', leave);
    process.off('SIGHUP', leave);
    ink.unmount();
    await ink.waitUntilExit();
  }
}
