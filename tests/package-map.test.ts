import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ARCHITECTURE_DOC,
  type CruisedModule,
  cruisePackages,
  MAP_END,
  MAP_START,
  renderPackageMap,
  withPackageMap,
} from './package-map.ts';

describe('the package map of docs/architecture.md', () => {
  it('is the one dependency-cruiser draws from the imports now (else run npm run map)', { timeout: 120_000 }, () => {
    const doc = readFileSync(ARCHITECTURE_DOC, 'utf8');
    const current = withPackageMap(doc, renderPackageMap(cruisePackages()));
    // Compared as text, so a failure shows which lines of the map differ.
    expect(doc.slice(doc.indexOf(MAP_START), doc.indexOf(MAP_END))).toBe(
      current.slice(current.indexOf(MAP_START), current.indexOf(MAP_END)),
    );
  });

  it('is found out of date once an import changes, on made-up modules', () => {
    const modules: CruisedModule[] = [
      { source: 'packages/booking/src/index.ts', dependencies: [{ resolved: 'packages/protocol/src/index.ts' }] },
      { source: 'packages/agent/src/run.test.ts', dependencies: [{ resolved: 'packages/relay/src/index.ts' }] },
    ];
    const doc = `# Architecture\n\n${MAP_START}\n\nold\n\n${MAP_END}\n`;
    const written = withPackageMap(doc, renderPackageMap(modules));
    expect(written).toContain('booking --> protocol');
    expect(written).toContain('agent -.-> relay');
    expect(written).toContain('- **agent** imports no other package; its tests also relay');
    expect(withPackageMap(written, renderPackageMap(modules))).toBe(written);
    const changed = [
      ...modules,
      { source: 'packages/relay/src/relay.ts', dependencies: [{ resolved: 'packages/booking/src/index.ts' }] },
    ];
    expect(withPackageMap(written, renderPackageMap(changed))).not.toBe(written);
    expect(() => withPackageMap('# no markers', renderPackageMap(modules))).toThrow(/lacks the markers/);
  });
});
