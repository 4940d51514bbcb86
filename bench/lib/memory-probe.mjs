// Preloaded into a server child by `bench/hoard.ts --probe` (`node --import`): every 20 ms it
// appends the process's own `process.memoryUsage()` to the file named by USHER_MEMORY_PROBE, one
// JSON line each (`t` in ms since the epoch), so the bench can say where resident memory went
// (V8's heap, or ArrayBuffers outside it such as the socket's chunks). It changes nothing else.
import { appendFileSync } from 'node:fs';

const file = process.env.USHER_MEMORY_PROBE;
if (file) {
  setInterval(() => {
    const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
    appendFileSync(file, `${JSON.stringify({ t: Date.now(), rss, heapTotal, heapUsed, external, arrayBuffers })}\n`);
  }, 20).unref();
}
