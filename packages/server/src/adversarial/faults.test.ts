import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Capability } from '@usher/relay';
import { Relay } from '@usher/relay';
import { describe, expect, it, onTestFinished } from 'vitest';
import { envelope, TestClient } from '../testing/index.ts';

/*
 * A fault inside a handler: the relay answers, goes on, and reports it without letting a stranger
 * who repeats the frame flood the server's log.
 */

/** A relay on a free port whose every connection holds `capability`, with an injected clock and warnings collected. */
async function relayWith(capability: Capability) {
  const logsDir = mkdtempSync(join(tmpdir(), 'usher-faults-'));
  let clock = Date.parse('2026-03-02T10:00:00Z');
  const warnings: string[] = [];
  const relay = new Relay({ logsDir, now: () => new Date(clock), warn: (line) => warnings.push(line) });
  const server = createServer();
  server.on('upgrade', (request, socket, head) => relay.handleUpgrade(request, socket, head, capability));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    relay.close();
    await new Promise((resolve) => server.close(resolve));
    rmSync(logsDir, { recursive: true, force: true });
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, warnings, advance: (ms: number) => (clock += ms) };
}

/** Recurses until the stack runs out: the RangeError a too-deep input would cause. */
function overflow(n: number): number {
  return overflow(n + 1) + 1;
}

describe('a stack overflow in a handler', () => {
  it('is answered every time, and its full stack is logged at most once per 10 s with a count of the rest', async () => {
    // Reading the credential's kind (at relay.join) overflows the stack.
    const capability = {
      get kind(): never {
        overflow(0);
        throw new Error('unreachable');
      },
    } as unknown as Capability;
    const { url, warnings, advance } = await relayWith(capability);
    const client = await TestClient.connect(url);
    const join = (id: string) => {
      const answered = client.nextMatching((f) => f.type === 'error');
      client.send(envelope('relay.join', { role: 'agent', sessionId: 'default' }, { id }));
      return answered;
    };

    for (let i = 0; i < 5; i++) {
      const answer = await join(`j${i}`);
      expect(answer.type).toBe('error');
      expect(answer.payload.code).toBe('TOOL_EXECUTION_FAILED');
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^relay: fault in receive \(conn-1\): RangeError: Maximum call stack size exceeded\n\s+at /,
    );
    expect(warnings[0]).toContain('overflow');

    advance(9_000);
    await join('j5');
    expect(warnings).toHaveLength(1);

    advance(1_000);
    await join('j6');
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatch(/Maximum call stack size exceeded[\s\S]*\(and 5 more like it in the last 10 s\)$/);
    // The connection is still served.
    expect(client.ws.readyState).toBe(client.ws.OPEN);
  });
});
