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

/** How long a reader may stop taking the archive before the stream gives up on it. */
export const ZIP_IDLE_MS = 60_000;

/**
 * A folder as a zip archive, streamed: each file is read a chunk at a time as the reader asks
 * for more (so a large export is never held in memory), Parquet stored as it is (it is
 * compressed already), every other file deflated. `onEnd` runs once the stream is done, cancelled,
 * or given up because its reader took nothing for `idleMs` (a client that stopped reading would
 * otherwise hold the folder, and whatever the caller holds until `onEnd`, for as long as it likes).
 */
export function zipFolder(dir: string, onEnd: () => void = () => {}, idleMs = ZIP_IDLE_MS): ReadableStream<Uint8Array> {
  let files: string[] | null = null;
  let index = 0;
  let current: { handle: Awaited<ReturnType<typeof open>>; entry: ZipDeflate | ZipPassThrough } | null = null;
  let zip: Zip;
  let ended = false;
  /** Chunks of the archive handed to the stream so far. */
  let produced = 0;
  let idle: NodeJS.Timeout | null = null;
  const end = () => {
    if (ended) return;
    ended = true;
    if (idle) clearTimeout(idle);
    void current?.handle.close();
    onEnd();
  };
  let giveUp: () => void = end;
  /** The reader's turn: a full queue is emptied only as it reads (its next read makes the next pull). */
  const waitForReader = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (ended || (controller.desiredSize ?? 0) > 0) return;
    idle = setTimeout(giveUp, idleMs);
    idle.unref();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      giveUp = () => {
        if (ended) return;
        controller.error(new Error(`the reader took nothing for ${idleMs} ms`));
        end();
      };
      zip = new Zip((err, chunk, final) => {
        if (err) {
          controller.error(err);
          end();
          return;
        }
        controller.enqueue(chunk);
        produced += 1;
        if (final) {
          controller.close();
          end();
        }
      });
    },
    async pull(controller) {
      if (idle) clearTimeout(idle);
      if (ended) return;
      files ??= await filesUnder(dir);
      // Each pull feeds chunks until the archive has grown (deflate holds small input back until
      // more comes or the file ends): a pull that added nothing would never be followed by another.
      // So the archive grows only as fast as it is read.
      const before = produced;
      while (produced === before && !ended) {
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
        } else {
          current.entry.push(buffer.subarray(0, bytesRead), false);
        }
      }
      waitForReader(controller);
    },
    cancel() {
      end();
    },
  });
}
