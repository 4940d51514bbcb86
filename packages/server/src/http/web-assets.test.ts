import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../testing/index.ts';

/** A request as a browser makes it, the body as it came over the wire (not decompressed). */
function raw(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    }).on('error', reject);
  });
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const SCRIPT = `export const answer = ${JSON.stringify('forty-two '.repeat(400))};\n`;

/** A built web root as packages/web's build leaves it: hashed assets with their compressed copies and maps. */
function builtRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'usher-web-assets-'));
  mkdirSync(join(root, 'assets'));
  const html = '<!doctype html><title>t</title><script type="module" src="/assets/main-Ab12Cd34.js"></script>';
  writeFileSync(join(root, 'index.html'), html);
  writeFileSync(join(root, 'console.html'), html.replace('<title>t', '<title>console'));
  writeFileSync(join(root, 'assets/main-Ab12Cd34.js'), SCRIPT);
  writeFileSync(join(root, 'assets/main-Ab12Cd34.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(root, 'assets/main-Ab12Cd34.js.gz'), gzipSync(SCRIPT));
  writeFileSync(join(root, 'assets/main-Ab12Cd34.js.map'), '{"version":3,"sources":["src/main.tsx"],"mappings":""}');
  return root;
}

describe('the web pages as usher serve sends them', () => {
  const root = builtRoot();
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('lets a browser keep hashed assets for a year and asks again for every page', async () => {
    const server = await startTestServer({ webRoot: root });
    const asset = await raw(`${server.url}/assets/main-Ab12Cd34.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe(IMMUTABLE);
    for (const page of ['/', '/index.html', '/console', '/console.html']) {
      const html = await raw(`${server.url}${page}`, { 'Accept-Encoding': 'br, gzip' });
      expect(html.status, page).toBe(200);
      expect(html.headers['content-type'], page).toMatch(/^text\/html/);
      expect(html.headers['cache-control'], page).toBe('no-cache');
    }
  });

  it('sends Brotli or gzip as the browser accepts, varying by Accept-Encoding, and the file as it is to others', async () => {
    const server = await startTestServer({ webRoot: root });
    const url = `${server.url}/assets/main-Ab12Cd34.js`;
    const br = await raw(url, { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(brotliDecompressSync(br.body).toString()).toBe(SCRIPT);
    expect(br.body.length).toBeLessThan(SCRIPT.length / 10);

    const gzip = await raw(url, { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/Accept-Encoding/i);
    expect(gunzipSync(gzip.body).toString()).toBe(SCRIPT);

    const plain = await raw(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
    expect(plain.body.toString()).toBe(SCRIPT);
  });

  it('compresses the API’s JSON for a browser that accepts it', async () => {
    const server = await startTestServer({ webRoot: root });
    const rooms = await raw(`${server.url}/api/rooms`, { 'Accept-Encoding': 'gzip' });
    expect(rooms.status).toBe(200);
    expect(rooms.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(rooms.body).toString())).toEqual({ rooms: [] });
  });

  it('serves no source map unless started with the flag', async () => {
    const closed = await startTestServer({ webRoot: root });
    expect((await raw(`${closed.url}/assets/main-Ab12Cd34.js.map`)).status).toBe(404);
    const open = await startTestServer({ webRoot: root, sourceMaps: true });
    const map = await raw(`${open.url}/assets/main-Ab12Cd34.js.map`);
    expect(map.status).toBe(200);
    expect(JSON.parse(map.body.toString()).sources).toEqual(['src/main.tsx']);
  });
});

/** The web host as `npm run build` leaves it (packages/web/dist). */
const WEB_DIST = new URL('../../../web/dist/', import.meta.url).pathname;

/** The source files of the scripts an HTML page loads at start (its module entry and what it preloads), from their maps. */
function sourcesLoadedBy(html: string): string[] {
  const scripts = [
    ...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
  ].map((m) => m[1] as string);
  expect(scripts.length).toBeGreaterThan(0);
  return scripts.flatMap(
    (src) => (JSON.parse(readFileSync(join(WEB_DIST, `${src}.map`), 'utf8')) as { sources: string[] }).sources,
  );
}

describe('what each built page loads at start', () => {
  beforeAll(() => {
    if (!existsSync(join(WEB_DIST, 'index.html'))) throw new Error(`${WEB_DIST} is not built: run npm run build`);
  });

  it('the participant’s page (consent, briefing, questionnaires) loads no booking page, no booking engine', async () => {
    const server = await startTestServer({ webRoot: WEB_DIST });
    const html = (await raw(`${server.url}/`)).body.toString();
    expect(html).toMatch(/<meta name="description" content="[^"]+"/);
    const sources = sourcesLoadedBy(html);
    expect(sources.some((s) => s.endsWith('src/study/StudyFlow.tsx'))).toBe(true);
    for (const booking of ['src/study/TaskRun.tsx', 'src/ui/App.tsx', 'src/ui/StageView.tsx', 'src/ui/ChatPanel.tsx']) {
      expect(sources.filter((s) => s.endsWith(booking))).toEqual([]);
    }
    expect(sources.filter((s) => s.includes('booking/src'))).toEqual([]);
  });

  it('the console loads no participant’s page until it watches one', async () => {
    const server = await startTestServer({ webRoot: WEB_DIST });
    const html = (await raw(`${server.url}/console`)).body.toString();
    expect(html).toMatch(/<meta name="description" content="[^"]+"/);
    const sources = sourcesLoadedBy(html);
    expect(sources.some((s) => s.endsWith('src/console/ConsoleApp.tsx'))).toBe(true);
    for (const page of ['src/console/WatchRoom.tsx', 'src/console/ReplayPanel.tsx', 'src/ui/StageView.tsx']) {
      expect(sources.filter((s) => s.endsWith(page))).toEqual([]);
    }
  });
});
