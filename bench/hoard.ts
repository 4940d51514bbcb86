/**
 * `npx tsx bench/hoard.ts`: how much resident memory strangers can make `usher serve` hold with
 * frames they never finish (issue 26: under 32 MB from one address, under 128 MB from 8, at the
 * default limits). Each repetition starts a fresh `usher serve` (open access on loopback) as a
 * child process, opens `--connections` WebSockets from each of `--addresses` loopback addresses
 * (127.0.0.2, 127.0.0.3, …; every one is its own address to the relay's per-address limits),
 * joins each as an observer (unless `--no-join`), and then has every one write the head of a
 * masked text frame announcing `--frame-mib` MiB and all of it but the last KiB, never the rest.
 * It reports the growth of the server's peak resident memory (VmHWM, and VmRSS polled every
 * 10 ms) over `--window-ms` from before the first connection, one line per repetition and the
 * median. Figures are in MB (10^6 bytes), the unit of the aims. It asserts nothing.
 *
 *   --addresses 1|…|8     loopback addresses to hoard from (default 1)
 *   --connections N       connections per address (default 24)
 *   --no-join             hoard before joining (held to 64 KiB of one frame)
 *   --reconnect           open a new hoarding connection whenever one is closed
 *   --reps N              repetitions (default 5)
 *   --window-ms N         how long to watch after the hoarding starts (default 3000)
 *   --frame-mib N         the announced frame (default 15)
 *   --limit name=value    passed to `usher serve --limit` (repeatable)
 *   --probe               also report the server's own process.memoryUsage() peaks (heap, ArrayBuffers)
 *   --verbose             show the server's warnings that name no limit
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AGENT_WS_PATH, PROTOCOL_VERSION } from '@usher/protocol';
import WebSocket from 'ws';
import { type RunningChild, startNodeChild } from './lib/child.ts';
import { atExit } from './lib/cleanup.ts';
import { procMemory } from './lib/proc.ts';
import { sleep } from './lib/waits.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: args } = parseArgs({
  options: {
    addresses: { type: 'string', default: '1' },
    connections: { type: 'string', default: '24' },
    'no-join': { type: 'boolean', default: false },
    reconnect: { type: 'boolean', default: false },
    reps: { type: 'string', default: '5' },
    'window-ms': { type: 'string', default: '3000' },
    'frame-mib': { type: 'string', default: '15' },
    limit: { type: 'string', multiple: true, default: [] },
    probe: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
});
const addresses = Number(args.addresses);
const perAddress = Number(args.connections);
const join_ = !args['no-join'];
const reps = Number(args.reps);
const windowMs = Number(args['window-ms']);
const frameBytes = Number(args['frame-mib']) * 1024 * 1024;
if (!(addresses >= 1 && addresses <= 8)) throw new Error('--addresses must be 1 to 8 (127.0.0.2–127.0.0.9)');

const MB = 1e6;
const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)/;
/** All but the last KiB of the announced frame: shared by every connection, so the load costs the client little. */
const payload = Buffer.alloc(frameBytes - 1024, 0x20);

function frameHead(length: number): Buffer {
  const head = Buffer.alloc(14);
  head[0] = 0x81; // FIN, text
  head[1] = 0x80 | 127; // masked, 64-bit length
  head.writeBigUInt64BE(BigInt(length), 2);
  head.writeUInt32BE(0x01020304, 10);
  return head;
}

interface Hoarder {
  ws: WebSocket;
  closed: boolean;
}

/** Connects from `localAddress`, joins (unless told not to) and resolves once it may hoard. */
function connect(port: number, localAddress: string, room: string): Promise<Hoarder> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${AGENT_WS_PATH}`, { localAddress, perMessageDeflate: false });
  const hoarder: Hoarder = { ws, closed: false };
  ws.on('error', () => {});
  ws.on('close', () => {
    hoarder.closed = true;
  });
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: HTTP ${res.statusCode}`)));
    ws.once('open', () => {
      if (!join_) return resolve(hoarder);
      ws.send(
        JSON.stringify({
          v: PROTOCOL_VERSION,
          type: 'relay.join',
          id: 'j',
          payload: { role: 'observer', sessionId: room },
        }),
      );
      ws.once('message', (data) => {
        const reply = JSON.parse(String(data)) as { type: string };
        if (reply.type === 'relay.joined') resolve(hoarder);
        else reject(new Error(`join refused: ${String(data)}`));
      });
    });
    ws.once('close', () => reject(new Error('closed before it could hoard')));
  });
}

function hoard(hoarder: Hoarder): void {
  const socket = (hoarder.ws as unknown as { _socket: Socket })._socket;
  socket.write(frameHead(frameBytes));
  socket.write(payload);
}

interface Rep {
  growthMB: number;
  polledMB: number;
  closed: number;
  opened: number;
  probe: Record<string, number> | null;
}

async function rep(n: number): Promise<Rep> {
  const work = mkdtempSync(join(tmpdir(), 'usher-hoard-'));
  const forget = atExit(() => rmSync(work, { recursive: true, force: true }));
  const probeFile = join(work, 'probe.jsonl');
  if (args.probe) process.env.USHER_MEMORY_PROBE = probeFile;
  let server: RunningChild | null = null;
  const hoarders: Hoarder[] = [];
  const warnings = new Map<string, number>();
  try {
    server = await startNodeChild({
      name: 'usher serve',
      args: [
        ...(args.probe ? ['--import', join(root, 'bench/lib/memory-probe.mjs')] : []),
        'packages/cli/bin/usher.js',
        'serve',
        '--port',
        '0',
        '--access',
        'open',
        '--data',
        join(work, 'data'),
        '--logs',
        join(work, 'logs'),
        ...(args.limit ?? []).flatMap((l) => ['--limit', l]),
      ],
      cwd: root,
      portPattern: LISTENING,
      // The relay's warnings (one per connection it closes) are counted by the limit named, not shown.
      stderr: (text) => {
        for (const line of text.split('\n')) {
          if (!line.trim()) continue;
          const said = line.replace(/ \(and \d+ more like it in the last \d+ s\)$/, '');
          const named = /did not answer the last ping/.test(said)
            ? 'heartbeat'
            : /no relay\.join within/.test(said)
              ? 'joinTimeoutMs'
              : (/\((\w+)\)\s*$/.exec(said)?.[1] ?? 'other');
          const limit = /^\d+$/.test(named) ? 'before join' : /stopped reading/.test(said) ? `paused: ${named}` : named;
          if (args.verbose) process.stderr.write(`[usher serve] ${line}\n`);
          warnings.set(limit, (warnings.get(limit) ?? 0) + 1);
        }
      },
    });
    const { pid, port } = server;
    await sleep(1000);
    const baseline = Math.min(...[0, 1, 2].map(() => procMemory(pid).rssKiB)) * 1024;
    const started = Date.now();
    const connectAll = async (): Promise<void> => {
      const opening: Promise<Hoarder>[] = [];
      for (let a = 0; a < addresses; a++) {
        for (let c = 0; c < perAddress; c++) opening.push(connect(port, `127.0.0.${a + 2}`, `hoard-${a}-${c}`));
      }
      hoarders.push(...(await Promise.all(opening)));
    };
    await connectAll();
    // The window starts with the first write; the load yields between connections, so the server
    // is sampled while the writes are still being issued too.
    const hoardStart = Date.now();
    let peak = 0;
    for (const h of hoarders) {
      hoard(h);
      peak = Math.max(peak, procMemory(pid).rssKiB * 1024);
      await new Promise((resolve) => setImmediate(resolve));
    }
    let opened = hoarders.length;
    const reopen = new Set<Hoarder>();
    while (Date.now() - hoardStart < windowMs) {
      peak = Math.max(peak, procMemory(pid).rssKiB * 1024);
      if (args.reconnect) {
        for (const [i, h] of hoarders.entries()) {
          if (!h.closed || reopen.has(h)) continue;
          reopen.add(h);
          const a = Math.floor(i / perAddress);
          connect(port, `127.0.0.${a + 2}`, `hoard-${a}-r${opened}`).then(
            (fresh) => {
              hoarders[i] = fresh;
              opened += 1;
              hoard(fresh);
            },
            () => reopen.delete(h),
          );
        }
      }
      await sleep(10);
    }
    const hwm = procMemory(pid).peakKiB * 1024;
    const closed = hoarders.filter((h) => h.closed).length;
    const why = [...warnings].map(([limit, count]) => `${count} ${limit}`).join(', ');
    let probe: Record<string, number> | null = null;
    if (args.probe) {
      const lines = readFileSync(probeFile, 'utf8').trim().split('\n');
      const samples = lines.map((l) => JSON.parse(l) as Record<string, number>);
      const before = samples.filter((s) => (s.t as number) < started).at(-1);
      const during = samples.filter((s) => (s.t as number) >= hoardStart && (s.t as number) <= hoardStart + windowMs);
      probe = {};
      for (const key of ['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers']) {
        const top = Math.max(...during.map((s) => s[key] as number));
        probe[key] = (top - ((before?.[key] as number) ?? 0)) / MB;
      }
    }
    const result = {
      growthMB: (hwm - baseline) / MB,
      polledMB: (peak - baseline) / MB,
      closed,
      opened,
      probe,
    };
    const probeText = probe
      ? ` · peaks over the baseline: ${Object.entries(probe)
          .map(([k, v]) => `${k} ${v >= 0 ? '+' : ''}${v.toFixed(1)}`)
          .join(', ')}`
      : '';
    console.log(
      `  rep ${n}: +${result.growthMB.toFixed(1)} MB (VmHWM), +${result.polledMB.toFixed(1)} MB (VmRSS polled); ${closed} of ${opened} connections closed${why ? ` (${why})` : ''}${probeText}`,
    );
    return result;
  } finally {
    for (const h of hoarders) h.ws.terminate();
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
    forget();
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

async function main(): Promise<void> {
  const aim = addresses === 1 ? 32 : 128;
  console.log(
    `usher serve, ${addresses} address(es) × ${perAddress} connections, ${join_ ? 'joined as observers' : 'not joined'}, ` +
      `each sending ${(payload.length / 1024 / 1024).toFixed(3)} MiB of a ${args['frame-mib']} MiB frame${args.reconnect ? ', reconnecting' : ''}` +
      `${args.limit?.length ? `, --limit ${args.limit.join(' --limit ')}` : ''}; peak over ${windowMs} ms, ${reps} reps`,
  );
  const results: Rep[] = [];
  for (let i = 1; i <= reps; i++) results.push(await rep(i));
  const growth = median(results.map((r) => r.growthMB));
  console.log(
    `median: +${growth.toFixed(1)} MB (VmHWM), +${median(results.map((r) => r.polledMB)).toFixed(1)} MB (VmRSS polled); ` +
      `aim for ${addresses === 1 ? 'one address' : 'up to 8 addresses'}: under ${aim} MB (${growth < aim ? 'met' : 'MISSED'})`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
