import { open, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';

const CHUNK = 256 * 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/**
 * A folder as a zip archive, streamed: each file is read a chunk at a time as the reader asks
 * for more (so a large export is never held in memory), Parquet stored as it is (it is
 * compressed already), every other file deflated. `onEnd` runs once the stream is done or cancelled.
 */
export function zipFolder(dir: string, onEnd: () => void = () => {}): ReadableStream<Uint8Array> {
  let files: string[] | null = null;
  let index = 0;
  let current: { handle: Awaited<ReturnType<typeof open>>; entry: ZipDeflate | ZipPassThrough } | null = null;
  let zip: Zip;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    void current?.handle.close();
    onEnd();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      zip = new Zip((err, chunk, final) => {
        if (err) {
          controller.error(err);
          end();
          return;
        }
        controller.enqueue(chunk);
        if (final) {
          controller.close();
          end();
        }
      });
    },
    async pull() {
      files ??= await filesUnder(dir);
      // Each pull feeds one chunk, so the archive grows only as fast as it is read.
      for (;;) {
        if (!current) {
          const file = files[index++];
          if (file === undefined) {
            zip.end();
            return;
          }
          const name = relative(dir, file);
          const entry = name.endsWith('.parquet') ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
          zip.add(entry);
          current = { handle: await open(file, 'r'), entry };
        }
        const buffer = new Uint8Array(CHUNK);
        const { bytesRead } = await current.handle.read(buffer, 0, CHUNK, null);
        if (bytesRead === 0) {
          current.entry.push(new Uint8Array(0), true);
          await current.handle.close();
          current = null;
          continue;
        }
        current.entry.push(buffer.subarray(0, bytesRead), false);
        return;
      }
    },
    cancel() {
      end();
    },
  });
}
