import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadStudyFile, StudyRegistry } from '@usher/study';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../testing/index.ts';

/*
 * HEAD requests, which any page of any site may send (a CORS-safelisted method, answered without
 * being read): the routes that answer with a stream must not keep one open for them.
 */

const DEMO = loadStudyFile(new URL('../../../../studies/demo.study.yaml', import.meta.url).pathname);
const work = mkdtempSync(join(tmpdir(), 'usher-head-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('HEAD requests', () => {
  it('hold no live view of the console and no export: the next GET is served', async () => {
    const registryPath = join(work, 'registry.sqlite');
    const registry = new StudyRegistry(registryPath);
    const server = await startTestServer({ study: { study: DEMO, registry, registryPath } });
    try {
      // More than the 32 live views the console allows at once.
      for (let i = 0; i < 40; i++) {
        const head = await fetch(`${server.url}/api/console/stream`, { method: 'HEAD' });
        expect(head.status).toBe(200);
        expect(head.headers.get('content-type')).toContain('text/event-stream');
      }
      const controller = new AbortController();
      const stream = await fetch(`${server.url}/api/console/stream`, { signal: controller.signal });
      expect(stream.status).toBe(200);
      controller.abort();

      const head = await fetch(`${server.url}/api/studies/${DEMO.id}/export.zip`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      const zip = await fetch(`${server.url}/api/studies/${DEMO.id}/export.zip`);
      expect(zip.status).toBe(200);
      expect((await zip.arrayBuffer()).byteLength).toBeGreaterThan(0);
    } finally {
      await server.close();
      registry.close();
    }
  });
});
