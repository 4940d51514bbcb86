import { defineConfig } from 'vite';

/** The relay `npm run dev` talks to (start it with `npx usher serve`). */
const relay = process.env.USHER_RELAY ?? 'http://127.0.0.1:8787';

export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: true,
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
