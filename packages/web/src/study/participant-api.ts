import { type FlowStep, type ParticipantView, ParticipantViewSchema } from '@usher/protocol';

/** Thrown when the server refuses the participant or a step; its message is for the participant. */
export class FlowRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * The page's side of the participant's API (packages/server/README.md, "Study mode"): where the
 * participant is, and the steps that move them on. The link's token is the credential; in open
 * mode the room, which only the link gives out, says who they are.
 */
export class ParticipantApi {
  constructor(
    private readonly room: string,
    private readonly token: string | null,
  ) {}

  /** Where the participant is, or null when this server runs no study. */
  async view(): Promise<ParticipantView | null> {
    const response = await fetch(this.url('/api/participant'), { headers: this.headers() });
    if (response.status === 404) return null;
    return this.read(response);
  }

  async step(step: FlowStep): Promise<ParticipantView> {
    const response = await fetch(this.url('/api/participant/step'), {
      method: 'POST',
      headers: { ...this.headers(), 'Content-Type': 'application/json' },
      body: JSON.stringify(step),
    });
    return this.read(response);
  }

  private async read(response: Response): Promise<ParticipantView> {
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    if (!response.ok) {
      throw new FlowRequestError(
        body?.error?.message ?? `the server answered HTTP ${response.status}`,
        response.status,
      );
    }
    return ParticipantViewSchema.parse(body);
  }

  private url(path: string): string {
    return this.token ? path : `${path}?room=${encodeURIComponent(this.room)}`;
  }

  private headers(): Record<string, string> {
    return this.token ? { Authorization: `Bearer ${this.token}` } : {};
  }
}
