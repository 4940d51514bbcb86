import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';

const SIGNALS = new URL('./signals.ts', import.meta.url).pathname;

/** A command that stops on the first signal, then takes forever to close (its close hangs). */
function hangingCommand() {
  const script = `
    const { stopSignal } = await import(${JSON.stringify(SIGNALS)});
    // What a real command's open server does: keeps the process alive until it closes.
    setInterval(() => {}, 1000);
    const stopped = stopSignal();
    console.log('ready');
    await stopped;
    console.log('closing');
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  const printed = async (line: string) => {
    while (!out.includes(line)) await once(child.stdout, 'data');
  };
  return { child, printed, stderr: () => err };
}

describe('stopSignal', () => {
  it('stops at the first Ctrl-C and quits at the second while the close hangs', async () => {
    const { child, printed, stderr } = hangingCommand();
    const exited = once(child, 'exit');
    await printed('ready');
    child.kill('SIGINT');
    await printed('closing');
    child.kill('SIGINT');
    const [code] = await exited;
    expect(code).toBe(130);
    expect(stderr()).toContain('SIGINT again: quitting');
  });

  it('quits at a second SIGTERM with 143', async () => {
    const { child, printed } = hangingCommand();
    const exited = once(child, 'exit');
    await printed('ready');
    child.kill('SIGTERM');
    await printed('closing');
    child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(143);
  });
});
