/**
 * Cross-origin checks for WebSocket upgrades and state-changing HTTP requests. A browser names the
 * page that makes a request in `Origin`; a request from a page of another site is refused unless
 * that origin is allowed (`--allow-origin`). Requests without `Origin` come from programs, not
 * from a page a participant was lured to, and are judged by their credential alone.
 */
export function originRefusal(
  headers: { origin?: string | undefined; host?: string | undefined },
  allowed: readonly string[],
): string | null {
  const origin = headers.origin;
  if (origin === undefined) return null;
  if (allowed.includes('*') || allowed.includes(origin)) return null;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return `the request's Origin "${origin.slice(0, 100)}" is not a URL`;
  }
  if (headers.host !== undefined && originHost === headers.host) return null;
  return `requests from pages of ${origin.slice(0, 100)} are not allowed (add it with --allow-origin)`;
}

/**
 * In open mode on loopback, a request must name a loopback host: a page of another site whose
 * name the attacker points at 127.0.0.1 (DNS rebinding) would otherwise pass as same-origin.
 */
export function loopbackHostRefusal(host: string | undefined): string | null {
  if (host === undefined) return 'the request names no Host';
  const name = host
    .replace(/:\d+$/, '')
    .replace(/^\[|\]$/g, '')
    .toLowerCase();
  if (name === 'localhost' || name === '::1' || /^127(\.\d{1,3}){3}$/.test(name)) return null;
  return `this server runs without access control and answers only requests for its loopback address, not "${host.slice(0, 100)}"`;
}

/**
 * In open mode nothing needs a credential, so a page of another site that makes the browser send
 * a request here (an image, a `no-cors` fetch: a GET or HEAD, which neither the Origin check nor
 * CORS stops from being sent) could admit participants, start exports or hold the console's live
 * views. The browser says so in `Sec-Fetch-Site`; such a request is refused unless it is a
 * navigation (a link followed to a study link or a page) or comes from an allowed origin.
 */
export function crossSiteRefusal(headers: Headers, allowed: readonly string[]): string | null {
  if (headers.get('sec-fetch-site') !== 'cross-site' || headers.get('sec-fetch-mode') === 'navigate') return null;
  const origin = headers.get('origin');
  if (allowed.includes('*') || (origin !== null && allowed.includes(origin))) return null;
  return 'this server runs without access control and answers pages of other sites only when they are followed as links (add a site with --allow-origin)';
}
