import type { Scenario } from '@usher/booking';
import type {
  AgentFeedEvent,
  ConsoleConditionSummary,
  ConsoleEpisode,
  ConsoleStudy,
  HostView,
  ParticipantRow,
  SessionSummary,
} from '@usher/protocol';

export interface RoomDetail {
  participant: ParticipantRow | undefined;
  state: (HostView & { source?: string }) | null;
  episodes: ConsoleEpisode[];
  world: Scenario | null;
  checklist: string[];
}

/** A console request the server refused, with its message for the experimenter. */
export class ConsoleRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The console's side of `/api/console/…`, with the experimenter's credential when the server needs one. */
export class ConsoleApi {
  constructor(readonly token: string | null) {}

  study(): Promise<{ study: ConsoleStudy; participants: ParticipantRow[] }> {
    return this.get('/api/console/study');
  }

  room(room: string): Promise<RoomDetail> {
    return this.get(`/api/console/rooms/${encodeURIComponent(room)}`);
  }

  /** The collaboration measures per condition, as the export's `conditions` table would hold them now. */
  summary(): Promise<{ conditions: ConsoleConditionSummary[] }> {
    return this.get('/api/console/summary');
  }

  sessions(): Promise<{ sessions: SessionSummary[] }> {
    return this.get('/api/console/sessions');
  }

  session(sessionId: string): Promise<{ session: SessionSummary; log: string; world: Scenario | null }> {
    return this.get(`/api/console/sessions/${encodeURIComponent(sessionId)}`);
  }

  act(room: string, what: 'take-over' | 'hand-back' | 'end' | 'reset', reason?: string): Promise<object> {
    return this.request(`/api/console/rooms/${encodeURIComponent(room)}/${what}`, {
      method: 'POST',
      body: JSON.stringify(reason === undefined ? {} : { reason }),
    });
  }

  /**
   * The study's analysis export as a zip (`GET /api/studies/<id>/export.zip`, made afresh by the
   * server), with the name the server gives it. Fetched with the credential in a header, not in
   * an address a download would keep in the browser's history.
   */
  async exportZip(studyId: string): Promise<{ blob: Blob; filename: string }> {
    const headers: Record<string, string> = this.token ? { Authorization: `Bearer ${this.token}` } : {};
    const response = await fetch(`/api/studies/${encodeURIComponent(studyId)}/export.zip`, { headers });
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
      throw new ConsoleRequestError(
        response.status,
        body?.error?.message ?? `the server answered HTTP ${response.status}`,
      );
    }
    const named = /filename="([\w.-]{1,200})"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1];
    return { blob: await response.blob(), filename: named ?? `${studyId}-export.zip` };
  }

  /** The live feed: the participant list as it changes, and every agent's episodes. Returns the function that closes it. */
  stream(handlers: {
    participants(rows: ParticipantRow[]): void;
    agent(event: AgentFeedEvent): void;
    connection(open: boolean): void;
  }): () => void {
    // EventSource sends no headers: the credential goes in the address, as it does for the relay.
    const source = new EventSource(
      `/api/console/stream${this.token ? `?token=${encodeURIComponent(this.token)}` : ''}`,
    );
    source.addEventListener('participants', (e) => handlers.participants(JSON.parse((e as MessageEvent).data)));
    source.addEventListener('agent', (e) => handlers.agent(JSON.parse((e as MessageEvent).data)));
    source.addEventListener('open', () => handlers.connection(true));
    source.addEventListener('error', () => handlers.connection(false));
    return () => source.close();
  }

  /** The relay's address for a console socket (observer or agent), with the credential. */
  relayUrl(): string {
    const base = location.origin.replace(/^http/, 'ws');
    const query = this.token ? `token=${encodeURIComponent(this.token)}` : 'as=experimenter';
    return `${base}/agent/ws?${query}`;
  }

  private get<T>(path: string): Promise<T> {
    return this.request(path, { method: 'GET' });
  }

  private async request<T>(path: string, init: RequestInit): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (init.method === 'POST') headers['Content-Type'] = 'application/json';
    const response = await fetch(path, { ...init, headers });
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    if (!response.ok) {
      throw new ConsoleRequestError(
        response.status,
        body?.error?.message ?? `the server answered HTTP ${response.status}`,
      );
    }
    return body as T;
  }
}
