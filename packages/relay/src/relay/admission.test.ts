import { describe, expect, it } from 'vitest';
import { OWN_AGENTS } from '../access/client-address.ts';
import { Admission } from './admission.ts';
import type { Peer } from './peer.ts';

describe('Admission', () => {
  it("counts the server's own agents apart from maxConnections, and holds them to one per room (maxRooms)", () => {
    const admission = new Admission({
      maxConnections: 1,
      maxConnectionsPerAddress: 1,
      maxBytesInProgress: 1024,
      maxRooms: 2,
    });
    admission.add({ address: '198.51.100.1' } as Peer);
    expect(admission.refusal('198.51.100.2')).toMatch(/maxConnections\)/);
    const own = [{ address: OWN_AGENTS }, { address: OWN_AGENTS }] as Peer[];
    for (const peer of own) {
      expect(admission.refusal(OWN_AGENTS)).toBeNull();
      admission.add(peer);
    }
    expect(admission.refusal(OWN_AGENTS)).toMatch(/maxRooms/);
    admission.remove(own[0] as Peer);
    expect(admission.refusal(OWN_AGENTS)).toBeNull();
    expect([admission.connections, admission.ownAgents]).toEqual([2, 1]);
  });
});

/** A connection as Admission sees it, counting how often it was paused and read again. */
function fakePeer(address: string, role: Peer['role'] = 'observer') {
  const peer = {
    address,
    role,
    inProgress: 0,
    paused: false,
    pauses: 0,
    resumes: 0,
    pause() {
      peer.paused = true;
      peer.pauses += 1;
    },
    resume() {
      peer.paused = false;
      peer.resumes += 1;
    },
  };
  return peer as typeof peer & Peer;
}

const KiB = 1024;
const MiB = 1024 * KiB;

describe('Admission: unfinished frames', () => {
  const limits = {
    maxConnections: 100,
    maxConnectionsPerAddress: 10,
    maxBytesInProgress: 4 * MiB,
    maxBytesInProgressPerAddress: 2 * MiB,
    maxRooms: 10,
  };

  /** `bytes` of an unfinished frame arrive from `peer` in chunks of 64 KiB, as long as it is read: what check said last. */
  function send(admission: Admission, peer: Peer, bytes: number) {
    let verdict: ReturnType<Admission['check']> = null;
    for (let sent = 0; sent < bytes && !peer.paused; sent += 64 * KiB) {
      admission.received(peer, 64 * KiB);
      verdict = admission.check(peer) ?? verdict;
    }
    return verdict;
  }

  it('stops reading from a connection in the middle of a frame once its address holds its share, instead of closing one', () => {
    const admission = new Admission(limits);
    const [a, b, other] = [fakePeer('198.51.100.1'), fakePeer('198.51.100.1'), fakePeer('198.51.100.2')];
    for (const peer of [a, b, other]) admission.add(peer);
    send(admission, a, 1536 * KiB);
    expect(a.paused).toBe(false);
    const verdict = send(admission, b, 15 * MiB);
    expect(verdict).toMatchObject({
      pause: b,
      why: expect.stringMatching(/198\.51\.100\.1 holds .*maxBytesInProgressPerAddress/),
    });
    // Read up to its share and no further: 15 MiB were on their way.
    expect(admission.inProgress).toBe(2 * MiB);
    // The other connection of the address is paused at its next chunk; another address goes on.
    send(admission, a, 15 * MiB);
    expect([a.paused, b.paused]).toEqual([true, true]);
    expect(admission.inProgress).toBe(2 * MiB + 64 * KiB);
    send(admission, other, 1 * MiB);
    expect(other.paused).toBe(false);
    expect(admission.pausedConnections).toBe(2);
  });

  it('reads a paused connection again once its address holds less than its share (a frame finished, a connection closed)', () => {
    const admission = new Admission(limits);
    const [a, b, c] = [fakePeer('198.51.100.1'), fakePeer('198.51.100.1'), fakePeer('198.51.100.1')];
    for (const peer of [a, b, c]) admission.add(peer);
    send(admission, a, 1 * MiB);
    send(admission, b, 15 * MiB);
    send(admission, c, 15 * MiB);
    expect([b.paused, c.paused]).toEqual([true, true]);
    admission.frameDone(a);
    expect([b.paused, c.paused, b.resumes, c.resumes]).toEqual([false, false, 1, 1]);
    send(admission, b, 15 * MiB);
    expect(b.paused).toBe(true);
    admission.remove(b);
    expect([c.paused, admission.pausedConnections]).toEqual([false, 0]);
  });

  it('once all connections hold maxBytesInProgress, pauses those of addresses holding more than a frame; the rest go on up to a frame more', () => {
    const admission = new Admission({ ...limits, maxBytesInProgressPerAddress: 16 * MiB });
    const hoarder = fakePeer('198.51.100.1');
    const small = [fakePeer('198.51.100.3'), fakePeer('198.51.100.4'), fakePeer('198.51.100.5')];
    for (const peer of [hoarder, ...small]) admission.add(peer);
    send(admission, hoarder, 15 * MiB);
    expect(hoarder.paused).toBe(true);
    expect(admission.inProgress).toBe(4 * MiB);
    // An address in the middle of one valid frame is not held back by it...
    send(admission, small[0] as Peer, 900 * KiB);
    expect(small[0]?.paused).toBe(false);
    // ...until all hold a frame more than maxBytesInProgress.
    for (const peer of small.slice(1)) send(admission, peer, 900 * KiB);
    expect(small.map((p) => p.paused)).toEqual([false, true, true]);
    expect(admission.inProgress).toBeLessThanOrEqual(5 * MiB + 64 * KiB);
    admission.remove(hoarder);
    expect(small.map((p) => p.paused)).toEqual([false, false, false]);
  });

  it('stops reading from a connection that sends more of a frame than a join needs before it joins, for good', () => {
    const admission = new Admission(limits);
    const [stranger, observer] = [fakePeer('198.51.100.1', null), fakePeer('198.51.100.1')];
    for (const peer of [stranger, observer]) admission.add(peer);
    expect(send(admission, stranger, 15 * MiB)).toMatchObject({ pause: stranger, why: /before joining a room/ });
    expect(admission.inProgress).toBe(128 * KiB);
    // Its address releasing bytes does not let it go on: the join timeout closes it.
    send(admission, observer, 1 * MiB);
    admission.frameDone(observer);
    expect([stranger.paused, stranger.resumes]).toEqual([true, 0]);
  });

  it("never pauses the server's own agents", () => {
    const admission = new Admission({ ...limits, maxBytesInProgressPerAddress: 1 * MiB });
    const own = fakePeer(OWN_AGENTS);
    admission.add(own);
    send(admission, own, 3 * MiB);
    expect(own.paused).toBe(false);
  });
});
