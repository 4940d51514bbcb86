import { checkFrameSource, framingHeaders } from '@usher/relay';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../testing/index.ts';

describe('framing', () => {
  it('accepts sites, with subdomain wildcards and ports, and nothing that could change the header', () => {
    expect(checkFrameSource('https://Survey.Example.org')).toBe('https://survey.example.org');
    expect(checkFrameSource('https://*.qualtrics.com')).toBe('https://*.qualtrics.com');
    expect(checkFrameSource('http://localhost:5173')).toBe('http://localhost:5173');
    for (const bad of [
      '*',
      "'unsafe-inline'",
      'https://a.org; script-src *',
      'https://a.org/path',
      'https://a.org\r\nX: y',
    ]) {
      expect(() => checkFrameSource(bad)).toThrow(RangeError);
    }
  });

  it('lets only the server itself frame study pages by default, and never the console', () => {
    expect(framingHeaders(false, [])).toEqual({
      'Content-Security-Policy': "frame-ancestors 'self'",
      'X-Frame-Options': 'SAMEORIGIN',
    });
    expect(framingHeaders(false, ['https://*.qualtrics.com'])).toEqual({
      'Content-Security-Policy': "frame-ancestors 'self' https://*.qualtrics.com",
    });
    expect(framingHeaders(true, ['https://*.qualtrics.com'])).toEqual({
      'Content-Security-Policy': "frame-ancestors 'none'",
      'X-Frame-Options': 'DENY',
    });
  });

  it('sends them on every answer of the server', async () => {
    const server = await startTestServer({ frameAncestors: ['https://survey.example.org'] });
    const page = await fetch(`${server.url}/healthz`);
    expect(page.headers.get('content-security-policy')).toBe("frame-ancestors 'self' https://survey.example.org");
    expect(page.headers.get('x-frame-options')).toBeNull();
    const console = await fetch(`${server.url}/console`);
    expect(console.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    expect(console.headers.get('x-frame-options')).toBe('DENY');
  });

  it('refuses to start with a site that is not one', async () => {
    await expect(startTestServer({ frameAncestors: ['https://a.org; script-src *'] })).rejects.toThrow(
      /--frame-ancestors: "https:\/\/a.org; script-src \*" is not a site/,
    );
  });
});
