import {
  RpcErrorCode,
  SERVER_REQUESTS,
  type ServerMethod,
  type ServerParams,
  type ServerResult,
  type UiCapabilities,
  type UiPickItem,
} from '@usher/protocol/stdio';
import type { PeerAnswer, RpcPeer } from './peer.ts';

/** The run a question belongs to: its id goes into the request, its signal withdraws it. */
export interface QuestionRun {
  id: string;
  signal: AbortSignal;
}

const CAPABILITY = {
  'ui.confirm.request': 'supports_confirm',
  'ui.prompt.request': 'supports_prompt',
  'ui.pick.request': 'supports_pick',
} as const satisfies Record<ServerMethod, keyof UiCapabilities>;

/**
 * The runtime's questions to the UI (ui-protocol-stdio §7), typed: each is sent only when the UI
 * said in `initialize` that it supports it, waits at most `timeoutMs`, and is withdrawn when its
 * run is cancelled. Whatever is not a clear answer (a timeout, a withdrawal, an error such as
 * -32003 user cancelled, a malformed result) counts as "no": false, null or no ids.
 */
export class UiRequests {
  constructor(
    private readonly peer: RpcPeer,
    private readonly capabilities: () => UiCapabilities,
    private readonly timeoutMs: number,
    private readonly log: (line: string) => void,
  ) {}

  supports(method: ServerMethod): boolean {
    return this.capabilities()[CAPABILITY[method]] === true;
  }

  /** Asks to go ahead (before the irreversible submit): true only when the UI answers `ok: true`. */
  async confirm(run: QuestionRun, question: Omit<ServerParams<'ui.confirm.request'>, 'run_id'>): Promise<boolean> {
    const result = await this.ask('ui.confirm.request', run, question);
    return result?.ok === true;
  }

  /** Asks for a value: the text, or null when the person would not say. */
  async prompt(run: QuestionRun, question: Omit<ServerParams<'ui.prompt.request'>, 'run_id'>): Promise<string | null> {
    const result = await this.ask('ui.prompt.request', run, question);
    return result?.value ?? null;
  }

  /** Asks to pick among `items`: the ids picked (only ids of `items`, one unless `multi`), `[]` for none. */
  async pick(run: QuestionRun, question: { title: string; items: UiPickItem[]; multi?: boolean }): Promise<string[]> {
    const result = await this.ask('ui.pick.request', run, question);
    if (!result) return [];
    const known = new Set(question.items.map((item) => item.id));
    const ids = [...new Set(result.ids)].filter((id) => known.has(id));
    if (ids.length !== result.ids.length) this.log('ui: ignored picked ids that were not offered (or repeated)');
    return question.multi ? ids : ids.slice(0, 1);
  }

  /** The UI's result, or null when there is no clear answer (or the UI cannot be asked). */
  private async ask<M extends ServerMethod>(
    method: M,
    run: QuestionRun,
    question: Omit<ServerParams<M>, 'run_id'>,
  ): Promise<ServerResult<M> | null> {
    if (!this.supports(method) || run.signal.aborted) return null;
    const params = { run_id: run.id, ...question } as ServerParams<M>;
    const answer = await this.peer.request(method, params, { timeoutMs: this.timeoutMs, signal: run.signal });
    return this.resultOf(method, answer);
  }

  private resultOf<M extends ServerMethod>(method: M, answer: PeerAnswer): ServerResult<M> | null {
    switch (answer.kind) {
      case 'withdrawn':
        return null;
      case 'timeout':
        this.log(`ui: ${method} got no answer within ${this.timeoutMs} ms; taken as "no"`);
        return null;
      case 'error':
        if (answer.error.code !== RpcErrorCode.UserCancelled) {
          this.log(
            `ui: ${method} was answered with error ${answer.error.code} (${answer.error.message}); taken as "no"`,
          );
        }
        return null;
      case 'result': {
        const parsed = SERVER_REQUESTS[method].result.safeParse(answer.result);
        if (parsed.success) return parsed.data as ServerResult<M>;
        this.log(`ui: ${method} was answered with a malformed result; taken as "no"`);
        return null;
      }
    }
  }
}
