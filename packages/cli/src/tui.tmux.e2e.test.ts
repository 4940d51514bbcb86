import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { startServe, USHER_BIN } from './test-helpers.ts';

/*
 * `usher tui` for real: in a tmux pane (a real terminal), against the real runtime (`usher runtime
 * --stdio`, spawned by the TUI) and a real relay with a headless booking host (`usher serve
 * --headless-host`). Keys go in with `send-keys`; the screen is read with `capture-pane`.
 */

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'usher-tui-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Generous: the machine is shared, and the TUI and the runtime compile their TypeScript as they load. */
const DEADLINE_MS = 120_000;
const INSTRUCTION = 'Two adults for Orbital Drift tomorrow evening in IMAX, seats together';

/**
 * A tmux server of its own (`-L`, no user config) with one 120×40 pane running `argv`. The pane
 * runs it through `sh`, which writes its exit status to a file once it ends.
 */
async function tmuxWith(argv: string[], options: { cwd: string; logFile: string }) {
  const socket = `usher-tui-${process.pid}-${randomUUID().slice(0, 8)}`;
  const tmux = (...args: string[]) => run('tmux', ['-L', socket, '-f', '/dev/null', ...args], { cwd: options.cwd });
  const raw = join(options.cwd, `${socket}.raw`);
  const exitFile = join(options.cwd, `${socket}.exit`);
  // Ink draws only the last frame when it believes it runs in CI: the pane says it does not.
  await tmux(
    ...['new-session', '-d', '-s', 'tui', '-x', '120', '-y', '40', '-c', options.cwd],
    ...['-e', 'CI=0', '-e', 'CONTINUOUS_INTEGRATION=0'],
    ...['sh', '-c', `"$@"; echo $? > '${exitFile}'`, 'usher-tui', ...argv],
    // The pane outlives the TUI, so a failure can still show the last screen.
    ...[';', 'set-option', '-t', 'tui', 'remain-on-exit', 'on'],
  );
  onTestFinished(async () => {
    await tmux('kill-server').catch(() => {});
    // kill-server leaves the socket file behind.
    rmSync(join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`, socket), { force: true });
  });
  // Every byte the TUI writes, for what is on screen only briefly.
  await tmux('pipe-pane', '-t', 'tui', '-o', `cat >> '${raw}'`);

  /** The visible screen, or with `history` the scrollback too. */
  const screen = async (history = false) =>
    (await tmux('capture-pane', '-p', '-t', 'tui', ...(history ? ['-S', '-'] : []))).stdout;

  const failure = async (what: string) => {
    const log = existsSync(options.logFile) ? readFileSync(options.logFile, 'utf8') : '(none)';
    return new Error(`${what}. Screen:\n${await screen()}\nRuntime log:\n${log}`);
  };

  /** Polls the screen until `pattern` shows; on the deadline, fails with what the screen held. */
  const waitFor = async (pattern: RegExp): Promise<string> => {
    const deadline = Date.now() + DEADLINE_MS;
    while (Date.now() < deadline) {
      const shown = await screen();
      if (pattern.test(oneLine(shown))) return shown;
      await sleep(100);
    }
    throw await failure(`${pattern} never showed`);
  };

  /** Waits for the TUI to end, and returns its exit status. */
  const exitStatus = async (): Promise<number> => {
    const deadline = Date.now() + DEADLINE_MS;
    while (Date.now() < deadline) {
      if (existsSync(exitFile)) {
        const status = readFileSync(exitFile, 'utf8').trim();
        if (status !== '') return Number(status);
      }
      await sleep(100);
    }
    throw await failure('the TUI did not exit');
  };

  return {
    waitFor,
    exitStatus,
    screen,
    /** Types text literally, as a person would. */
    type: (text: string) => tmux('send-keys', '-t', 'tui', '-l', text),
    keys: (...keys: string[]) => tmux('send-keys', '-t', 'tui', ...keys),
    /** What the TUI has written, without escape sequences. */
    written: () => (existsSync(raw) ? stripAnsi(readFileSync(raw, 'utf8')) : ''),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ink wraps long lines itself; the checks read the screen as one line. */
function oneLine(text: string): string {
  return text.replace(/\n\s*/g, ' ');
}

function stripAnsi(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are what is removed
  return text.replace(/\u001B(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007]*\u0007|[@-Z\\-_])/g, '');
}

/** The booking references the host confirmed, from the study logs the relay wrote. */
function confirmedBookings(logs: string): string[] {
  if (!existsSync(logs)) return [];
  const refs = readdirSync(logs)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => [...readFileSync(join(logs, f), 'utf8').matchAll(/Booking confirmed: (USH-[A-Z0-9]+)/g)])
    .map((m) => m[1] as string);
  return [...new Set(refs)];
}

describe('usher tui under tmux', () => {
  it('runs an instruction, answers the confirm, shows the final answer, and cancels a run with Esc', {
    timeout: 600_000,
  }, async () => {
    const { url } = await startServe(['--headless-host'], work);
    const relay = url.replace(/^http/, 'ws');
    const logFile = join(work, 'runtime.log');
    const pane = await tmuxWith(
      [process.execPath, USHER_BIN, 'tui', '--url', relay, '--room', 'default', '--runtime-log', logFile],
      { cwd: work, logFile },
    );

    await pane.waitFor(/connected to usher-runtime/);
    await pane.waitFor(/IDLE/);

    // A run: the instruction, its steps and the status line, the confirm dialog, the answer.
    await pane.type(INSTRUCTION);
    await pane.waitFor(new RegExp(`› ${INSTRUCTION}`));
    await pane.keys('Enter');
    // The agent may ask to pick among equally good options (ui.pick.request): the first is taken.
    let asking = await pane.waitFor(/Submit this booking\?|↑\/↓ move · Enter choose/);
    while (!asking.includes('Submit this booking?')) {
      await pane.keys('Enter');
      await sleep(300);
      asking = await pane.waitFor(/Submit this booking\?|↑\/↓ move · Enter choose/);
    }
    // The run waits on the operator: the status line names the tool, the step and the context left.
    expect(oneLine(asking)).toMatch(/AWAITING · tool=\w+ · step=\d+ · ctx=\d+%/);
    expect(oneLine(asking)).toMatch(/last {2}step \d+ · .+ · ok · \d+ ms/);
    expect(oneLine(asking)).toMatch(/✓ \d+ select ·/);
    // While the agent worked, the status line read RUNNING with the tool in use.
    expect(pane.written()).toMatch(/RUNNING · tool=\w+ · step=\d+ · ctx=\d+%/);
    expect(confirmedBookings(join(work, 'logs', 'study'))).toEqual([]);

    await pane.keys('y');
    const done = await pane.waitFor(/DONE · tool=\w+ · step=\d+ · ctx=\d+%/);
    expect(done).not.toContain('Submit this booking?');
    const [booking] = confirmedBookings(join(work, 'logs', 'study'));
    expect(booking).toMatch(/^USH-/);
    // The final answer names the booking the host made.
    expect(oneLine(await pane.screen(true))).toMatch(new RegExp(`◆ [^◆]*${booking}`));

    // A second run, cancelled with Esc while it runs (Esc follows Enter at once, so the run
    // cannot reach its confirm first): the status line ends CANCELLED and nothing is booked.
    await pane.type('One adult for Orbital Drift tomorrow evening');
    await pane.waitFor(/› One adult for Orbital Drift tomorrow evening/);
    await pane.keys('Enter', 'Escape');
    const cancelled = await pane.waitFor(/CANCELLED · tool=/);
    expect(oneLine(cancelled)).toMatch(/cancelled after \d+ steps/);
    expect(cancelled).not.toContain('Submit this booking?');
    expect(confirmedBookings(join(work, 'logs', 'study'))).toEqual([booking]);

    // The runtime's stderr went to its log file, never onto the screen.
    const [firstLogLine = ''] = readFileSync(logFile, 'utf8').split('\n');
    expect(firstLogLine).not.toBe('');
    expect(await pane.screen(true)).not.toContain(firstLogLine);

    // /quit stops the runtime and leaves with status 0.
    await pane.type('/quit');
    await pane.keys('Enter');
    expect(await pane.exitStatus()).toBe(0);
  });

  it('spawns the --runtime-cmd given, shows its bad lines as errors, and quits on Ctrl-C when idle', {
    timeout: 300_000,
  }, async () => {
    // A runtime of a few lines: it answers initialize, then writes a line that is not the protocol.
    const script = join(work, 'odd runtime.cjs');
    writeFileSync(
      script,
      `const rl = require('node:readline').createInterface({ input: process.stdin });
      rl.on('line', (line) => {
        const m = JSON.parse(line);
        if (m.method !== 'initialize') return;
        process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {
          protocol_version: '0', server: { name: 'odd-runtime', version: '2.0' } } }) + '\\n');
        process.stdout.write('this is not json\\n');
      });
      rl.on('close', () => process.exit(0));`,
    );
    const logFile = join(work, 'odd.log');
    const pane = await tmuxWith(
      [
        process.execPath,
        USHER_BIN,
        'tui',
        '--runtime-cmd',
        `"${process.execPath}" "${script}"`,
        '--runtime-log',
        logFile,
      ],
      { cwd: work, logFile },
    );
    await pane.waitFor(/connected to odd-runtime 2\.0/);
    await pane.waitFor(/✗ the runtime sent a line that is not JSON: this is not json/);
    await pane.waitFor(/IDLE/);
    await pane.keys('C-c');
    expect(await pane.exitStatus()).toBe(0);
  });
});
