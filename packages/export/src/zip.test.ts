import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { zipFolder } from './zip.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder with a text file, a 3 MiB file that does not compress, and a Parquet-named file in a subfolder. */
function folder() {
  const dir = mkdtempSync(join(tmpdir(), 'usher-zip-'));
  dirs.push(dir);
  const files = {
    'events.csv': Buffer.from('a,b\n1,2\n'.repeat(1000)),
    'noise.bin': randomBytes(3 * 1024 * 1024),
    'logs/s-20261125-001.parquet': randomBytes(1000),
  };
  mkdirSync(join(dir, 'logs'));
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
  return { dir, files };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return new Uint8Array(Buffer.concat(chunks));
}

describe('zipFolder', () => {
  it('streams every file of the folder into an archive that unzips to the same bytes, then ends once', async () => {
    const { dir, files } = folder();
    const onEnd = vi.fn();
    const unzipped = unzipSync(await readAll(zipFolder(dir, onEnd)));
    expect(Object.keys(unzipped).sort()).toEqual(Object.keys(files).sort());
    // Buffer.equals, not toEqual: a deep equality walks 3 MiB one byte at a time (seconds).
    for (const [name, bytes] of Object.entries(files)) {
      expect(Buffer.from(unzipped[name] as Uint8Array).equals(bytes), name).toBe(true);
    }
    expect(onEnd).toHaveBeenCalledTimes(1);
  });

  it('gives up on a reader that stops taking the archive, and ends so the caller can let go', async () => {
    const { dir } = folder();
    const onEnd = vi.fn();
    const reader = zipFolder(dir, onEnd, 100).getReader();
    const closed = reader.closed.catch((err: Error) => err.message);
    await reader.read();
    await vi.waitFor(() => expect(onEnd).toHaveBeenCalledTimes(1), { timeout: 5000, interval: 20 });
    // What was queued may still be read; then the stream says why it stopped.
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return;
      })(),
    ).rejects.toThrow(/took nothing for 100 ms/);
    expect(await closed).toMatch(/took nothing for 100 ms/);
  });
});
