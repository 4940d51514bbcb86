import { randomBytes } from 'node:crypto';
import { constants, crc32, deflateRawSync } from 'node:zlib';
import type { ParticipantView } from '@usher/protocol';

/** A task's world as its views carry it: its JSON, and that JSON compressed once into raw deflate blocks. */
interface WorldBody {
  json: Buffer;
  /** Raw deflate of {@link json}, ended by a sync flush: byte-aligned, no final block, so more blocks may follow. */
  deflated: Buffer;
}

/**
 * Stands in for the world while the rest of a view is turned into JSON. Random per process: no
 * text in a view (a participant's id, a study's wording) can be made to look like it.
 */
const MARK = JSON.stringify(`usher-world-${randomBytes(16).toString('hex')}`);

/** gzip's fixed header: deflate, no flags, no time, no extra fields, OS unknown (RFC 1952). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/**
 * The participant's view as a JSON answer, gzip'd when the request accepts it, with its task's
 * world (about 120 KB of JSON in the demo study, the same for everyone on it) turned into JSON
 * and compressed once per world rather than once per request: the participant's own parts (where
 * they are, the task's wording, the questionnaire) are compressed on each request, the world's
 * blocks spliced between them (a deflate stream may be cut into blocks after a sync flush). The
 * body is, byte for byte, the view's JSON as `JSON.stringify` gives it; a client that does not
 * accept gzip gets it as it is.
 */
export class ViewBodies {
  /** Keyed by the world object a view carries (StudyMode hands out one per task), so held as long as the study is. */
  private readonly worlds = new WeakMap<object, WorldBody>();

  /** The answer for `view` to a request whose `Accept-Encoding` is `acceptEncoding`. */
  response(view: ParticipantView, acceptEncoding: string | undefined): Response {
    const world = view.task?.world;
    // Small or worldless views: the API's compress middleware takes them as it takes any JSON.
    if (!world || !view.task) return json(JSON.stringify(view), null);
    const cut = JSON.stringify({ ...view, task: { ...view.task, world: MARK_VALUE } });
    const at = cut.indexOf(MARK);
    if (at < 0 || cut.indexOf(MARK, at + 1) >= 0) return json(JSON.stringify(view), null);
    const body = this.world(world);
    const head = Buffer.from(cut.slice(0, at), 'utf8');
    const tail = Buffer.from(cut.slice(at + MARK.length), 'utf8');
    if (!acceptsGzip(acceptEncoding)) return json(Buffer.concat([head, body.json, tail]), null);
    return json(spliceGzip(head, body, tail), 'gzip');
  }

  private world(world: object): WorldBody {
    let body = this.worlds.get(world);
    if (!body) {
      const json = Buffer.from(JSON.stringify(world), 'utf8');
      const deflated = deflateRawSync(json, {
        level: constants.Z_BEST_COMPRESSION,
        finishFlush: constants.Z_SYNC_FLUSH,
      });
      body = { json, deflated };
      this.worlds.set(world, body);
    }
    return body;
  }
}

/** The value {@link MARK} is the JSON of. */
const MARK_VALUE = JSON.parse(MARK) as string;

/** One gzip member of `head`, the world and `tail`: each part's deflate blocks in turn, then the CRC and length of them all. */
export function spliceGzip(head: Buffer, world: WorldBody, tail: Buffer): Buffer<ArrayBuffer> {
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(tail, crc32(world.json, crc32(head))) >>> 0, 0);
  trailer.writeUInt32LE((head.length + world.json.length + tail.length) % 2 ** 32, 4);
  return Buffer.concat([
    GZIP_HEADER,
    deflateRawSync(head, { finishFlush: constants.Z_SYNC_FLUSH }),
    world.deflated,
    deflateRawSync(tail),
    trailer,
  ]);
}

/** Whether a request with this `Accept-Encoding` takes gzip (named, or `*`, with a weight above 0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let gzip: number | null = null;
  let any: number | null = null;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    if (name.trim() === 'gzip' || name.trim() === 'x-gzip') gzip = weight;
    else if (name.trim() === '*') any = weight;
  }
  return (gzip ?? any ?? 0) > 0;
}

function json(body: Buffer<ArrayBuffer> | string, encoding: 'gzip' | null): Response {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Vary: 'Accept-Encoding' };
  if (encoding) headers['Content-Encoding'] = encoding;
  return new Response(body, { headers });
}
