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
