/**
 * A request's body as JSON; a body that is not JSON becomes `undefined`, which the route's schema
 * then refuses with its own message, so every route answers a bad body the same way.
 */
export async function readJson(request: { json(): Promise<unknown> }): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    return undefined;
  }
}
