import { expect } from 'vitest';

/*
 * A participant's side of a study server in tests, as their browser speaks it: the study link,
 * then the participant API with the host credential the link hands out.
 */

/** Opens the study link (`/s/demo-01?<query>`) as a browser would; returns where it was sent and the return-key cookie it got. */
export async function openStudyLink(base: string, query: string, cookie?: string) {
  const response = await fetch(`${base}/s/demo-01?${query}`, {
    redirect: 'manual',
    ...(cookie && { headers: { Cookie: cookie } }),
  });
  expect(response.status).toBe(302);
  const page = new URL(response.headers.get('location') as string, base);
  return {
    room: page.searchParams.get('room') as string,
    participant: page.searchParams.get('participant') as string,
    token: page.searchParams.get('token') as string,
    /** The return key the browser keeps (a first visit's `Set-Cookie`), as a `Cookie` header. */
    cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '',
  };
}

/** The participant API with `token` (the room's host credential): where they are, and a step. */
export function participantApi(base: string, token: string) {
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  return {
    // biome-ignore lint/suspicious/noExplicitAny: the view is what the assertions check
    view: async (): Promise<any> => (await fetch(`${base}/api/participant`, { headers })).json(),
    // biome-ignore lint/suspicious/noExplicitAny: the view is what the assertions check
    step: async (body: object): Promise<{ status: number; body: any }> => {
      const response = await fetch(`${base}/api/participant/step`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    },
  };
}
