import {
  type AgentControlState,
  AgentControlStateSchema,
  type FlowStep,
  type ParticipantControl,
  type ParticipantView,
  ParticipantViewSchema,
  type QuestionnaireSubmission,
} from '@usher/protocol';

/** An answer the server refused (`INVALID_ANSWERS`), by item. */
export interface RefusedAnswer {
  itemId: string;
  problem: string;
  message: string;
}

/** Thrown when the server refuses the participant, a step or answers; its message is for the participant. */
export class FlowRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** With refused answers: which, and why. */
    readonly problems: RefusedAnswer[] = [],
  ) {
    super(message);
  }
}

/**
 * The page's side of the participant's API (packages/study-host/README.md, "Study mode"): where the
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

  /** Answers to the questionnaire the participant is on (checked, stored and logged by the server). */
  async answer(submission: QuestionnaireSubmission): Promise<ParticipantView> {
    const response = await fetch(this.url('/api/participant/questionnaire'), {
      method: 'POST',
      headers: { ...this.headers(), 'Content-Type': 'application/json' },
      body: JSON.stringify(submission),
    });
    return this.read(response);
  }

  /** Presses one of the participant's controls over the agent; resolves with where they stand after it. */
  async control(control: ParticipantControl): Promise<AgentControlState> {
    const response = await fetch(this.url('/api/participant/control'), {
      method: 'POST',
      headers: { ...this.headers(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ control }),
    });
    const body = (await response.json().catch(() => null)) as {
      agentControl?: unknown;
      error?: { message?: string };
    } | null;
    if (!response.ok) {
      throw new FlowRequestError(
        body?.error?.message ?? `the server answered HTTP ${response.status}`,
        response.status,
        [],
      );
    }
    return AgentControlStateSchema.parse(body?.agentControl);
  }

  private async read(response: Response): Promise<ParticipantView> {
    const body = (await response.json().catch(() => null)) as {
      error?: { message?: string; problems?: RefusedAnswer[] };
    } | null;
    if (!response.ok) {
      const problems = Array.isArray(body?.error?.problems) ? body.error.problems : [];
      throw new FlowRequestError(
        body?.error?.message ?? `the server answered HTTP ${response.status}`,
        response.status,
        problems,
      );
    }
    return ParticipantViewSchema.parse(body);
  }

  /**
   * The room goes with every request, the token too: a server that finds the token is for another
   * room refuses, rather than show that room's participant on a page that joins this one.
   */
  private url(path: string): string {
    return `${path}?room=${encodeURIComponent(this.room)}`;
  }

  private headers(): Record<string, string> {
    return this.token ? { Authorization: `Bearer ${this.token}` } : {};
  }
}
