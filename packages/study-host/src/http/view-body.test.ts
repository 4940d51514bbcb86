import { constants, deflateRawSync, gunzipSync } from 'node:zlib';
import type { ParticipantView } from '@usher/protocol';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, ViewBodies } from './view-body.ts';

const world = {
  theaters: Array.from({ length: 40 }, (_, i) => ({ id: `t${i}`, name: `Théâtre ${i} — “Lumière”`, seats: i * 7 })),
};

function view(participantId: string, extra: Partial<ParticipantView> = {}): ParticipantView {
  return {
    participantId,
    study: { id: 'demo-01', title: 'Booking with an assistant ✓' },
    status: 'task',
    taskIndex: 0,
    taskCount: 2,
    page: { chat: true },
    task: { id: 'movie', title: 'Two tickets', briefing: 'Book “two” seats', checklist: ['a', 'ü'], world },
    ...extra,
  } as ParticipantView;
}

async function bytes(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

describe('a participant view with its task’s world', () => {
  it('is gzip whose content is the view’s JSON byte for byte, for each participant', async () => {
    const bodies = new ViewBodies();
    for (const v of [view('p1'), view('p2', { agentControl: { paused: false } } as Partial<ParticipantView>)]) {
      const response = bodies.response(v, 'gzip, deflate, br');
      expect(response.headers.get('content-encoding')).toBe('gzip');
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('vary')).toBe('Accept-Encoding');
      expect(gunzipSync(await bytes(response)).toString('utf8')).toBe(JSON.stringify(v));
    }
  });

  it('compresses the world once: every answer carries the same compressed blocks of it', async () => {
    const bodies = new ViewBodies();
    const once = deflateRawSync(JSON.stringify(world), {
      level: constants.Z_BEST_COMPRESSION,
      finishFlush: constants.Z_SYNC_FLUSH,
    });
    for (const id of ['p1', 'p2', 'a-participant-with-a-much-longer-id']) {
      expect((await bytes(bodies.response(view(id), 'gzip'))).indexOf(once)).toBeGreaterThan(0);
    }
  });

  it('is the JSON as it is for a client that takes no gzip, and a view without a world too', async () => {
    const bodies = new ViewBodies();
    const plain = bodies.response(view('p1'), 'br;q=1, gzip;q=0');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect((await bytes(plain)).toString('utf8')).toBe(JSON.stringify(view('p1')));
    const consent = { ...view('p1'), status: 'consent', task: undefined } as ParticipantView;
    const worldless = bodies.response(consent, 'gzip');
    expect(worldless.headers.get('content-encoding')).toBeNull();
    expect(await worldless.text()).toBe(JSON.stringify(consent));
  });

  it('stays whole when a participant’s own text looks like the mark the world is cut at', async () => {
    const bodies = new ViewBodies();
    const tricky = view('usher-world-00000000000000000000000000000000', {
      study: { id: 'demo-01', title: '"usher-world-" \\"' },
    } as Partial<ParticipantView>);
    expect(gunzipSync(await bytes(bodies.response(tricky, 'gzip'))).toString('utf8')).toBe(JSON.stringify(tricky));
  });
});

describe('acceptsGzip', () => {
  it('reads Accept-Encoding as browsers and clients send it', () => {
    expect(acceptsGzip('gzip, deflate, br, zstd')).toBe(true);
    expect(acceptsGzip('br;q=1.0, gzip;q=0.8')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('GZIP')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('*;q=0.5, gzip;q=0')).toBe(false);
    expect(acceptsGzip('br, deflate')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip('')).toBe(false);
  });
});
