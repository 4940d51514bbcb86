/**
 * The baseline of the stdio benchmark: a bare NDJSON peer that answers every request line with
 * an empty result carrying its id. It splits lines and parses JSON, as any JSON-RPC peer must,
 * and does nothing else: no validation, no method table, no sessions.
 */
import { createInterface } from 'node:readline';

const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
lines.on('line', (line) => {
  const { id } = JSON.parse(line) as { id: unknown };
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result: {} })}\n`);
});
