/**
 * Which sites may show Usher's pages in a frame (`Content-Security-Policy: frame-ancestors`).
 * Without it, any site could frame a page and trick a person into clicking in it (clickjacking):
 * the console open on a researcher's loopback address could be framed by a page they visit and
 * end participants' tasks. The console is never framed; study pages only by Usher's own origin and
 * the sites named with `--frame-ancestors` (a survey tool that embeds the study, say).
 */

/** A site allowed to frame study pages: `https://host[:port]`, or `https://*.host` for its subdomains. */
const FRAME_SOURCE = /^https?:\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i;

/** Throws a RangeError saying what is expected when `source` is not a site {@link FRAME_SOURCE} accepts. */
export function checkFrameSource(source: string): string {
  if (!FRAME_SOURCE.test(source)) {
    throw new RangeError(
      `"${source}" is not a site such as https://survey.example.org or https://*.example.org (scheme and host, an optional port)`,
    );
  }
  return source.toLowerCase();
}

/** The framing headers of one response: the console's, or a study page's with the sites allowed to frame it. */
export function framingHeaders(isConsole: boolean, frameAncestors: readonly string[]): Record<string, string> {
  if (isConsole) return { 'Content-Security-Policy': "frame-ancestors 'none'", 'X-Frame-Options': 'DENY' };
  const sources = ["'self'", ...frameAncestors.map(checkFrameSource)].join(' ');
  // X-Frame-Options (for browsers without CSP) can name no other site: sent only when none is allowed.
  return frameAncestors.length === 0
    ? { 'Content-Security-Policy': `frame-ancestors ${sources}`, 'X-Frame-Options': 'SAMEORIGIN' }
    : { 'Content-Security-Policy': `frame-ancestors ${sources}` };
}
