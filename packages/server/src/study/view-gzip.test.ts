import { get, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { loadStudyFile, StudyRegistry } from '@usher/study';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../testing/index.ts';

const DEMO = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);

/** A GET as a browser makes it, the body as it came over the wire (not decompressed). */
function raw(url: string, headers: Record<string, string>) {
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

describe('the participant’s view over HTTP', () => {
  it('comes gzip’d with its task’s world to a browser that accepts gzip, the same JSON as to one that does not', async () => {
    const server = await startTestServer({ study: { study: DEMO, registry: new StudyRegistry(':memory:') } });
    const link = await fetch(`${server.url}/s/demo-01?participant=g1`, { redirect: 'manual' });
    const room = new URL(link.headers.get('location') as string, server.url).searchParams.get('room') as string;
    const consent = await fetch(`${server.url}/api/participant/step?room=${room}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Accept-Encoding': 'gzip' },
      body: JSON.stringify({ step: 'consent' }),
    });
    expect(consent.status).toBe(200);
    expect(consent.headers.get('content-encoding')).toBe('gzip');
    expect(((await consent.json()) as { task?: { world?: unknown } }).task?.world).toBeTruthy();

    const url = `${server.url}/api/participant?room=${room}`;
    const gzip = await raw(url, { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(gzip.status).toBe(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/Accept-Encoding/i);
    const plain = await raw(url, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gunzipSync(gzip.body).toString('utf8')).toBe(plain.body.toString('utf8'));
    const view = JSON.parse(plain.body.toString('utf8')) as {
      status: string;
      task: { world: Record<string, unknown> };
    };
    expect(view.status).toBe('briefing');
    // The world without its story, which only the experimenter sees.
    expect(Object.keys(view.task.world).length).toBeGreaterThan(0);
    expect(view.task.world).not.toHaveProperty('story');
    expect(gzip.body.length).toBeLessThan(plain.body.length / 3);
  });
});
