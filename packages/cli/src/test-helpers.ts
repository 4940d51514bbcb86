import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { onTestFinished } from 'vitest';

/** The `usher` command as installed, run with the same Node as the tests. */
export const USHER_BIN = new URL('../bin/usher.js', import.meta.url).pathname;

/**
 * Starts `usher serve --port 0 …` as a child process and resolves with its address once it has
 * printed it. The process is killed when the test ends, if it is still running.
 */
export function startServe(
  args: string[],
  cwd?: string,
  /** Added to the test's environment. */
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcessWithoutNullStreams; url: string }> {
  const child = spawn(process.execPath, [USHER_BIN, 'serve', '--port', '0', ...args], {
    cwd,
    env: { ...process.env, ...env },
  });
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1] as string });
    });
    child.on('close', (code) => reject(new Error(`usher serve exited with ${code}`)));
  });
}
