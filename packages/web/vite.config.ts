import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

/** The relay `npm run dev` talks to (start it with `npx usher serve`). */
const relay = process.env.USHER_RELAY ?? 'http://127.0.0.1:8787';

/** Text assets worth compressing (source maps are left out: served only with `--source-maps`). */
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

/**
 * Leaves a Brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside each text asset of
 * the build, once, so `usher serve` sends the one the browser accepts without compressing per
 * request (its static handler's `precompressed` option picks it).
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'usher-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
          entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
        );
      for (const file of walk(outDir).filter((f) => COMPRESSIBLE.test(f))) {
        const bytes = readFileSync(file);
        if (bytes.length < MIN_BYTES) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(bytes, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Written for debugging; `usher serve` serves them only with `--source-maps`.
    sourcemap: true,
    // Two pages: the participant's (index.html) and the experimenter's console (console.html).
    rollupOptions: { input: { main: 'index.html', console: 'console.html' } },
  },
  server: {
    proxy: {
      '/api': relay,
      '/agent/ws': { target: relay.replace(/^http/, 'ws'), ws: true },
    },
  },
});
