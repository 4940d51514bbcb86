import type { Hit, Scan } from './types.ts';

/**
 * Runs a global, case-insensitive pattern over the scan's text and keeps what `read` makes of
 * each match. `\b` is added on both sides, so patterns match whole words only.
 */
export function hits(scan: Scan, source: string, read: (m: RegExpExecArray, scan: Scan) => Hit | undefined): Hit[] {
  const re = new RegExp(String.raw`(?<!\w)(?:${source})(?!\w)`, 'gi');
  const out: Hit[] = [];
  for (const m of scan.text.matchAll(re)) {
    const hit = read(m as RegExpExecArray, scan);
    if (hit) out.push(hit);
  }
  return out;
}

/** The span of a whole match. */
export function span(m: RegExpExecArray): { start: number; end: number } {
  const start = m.index ?? 0;
  return { start, end: start + m[0].length };
}
