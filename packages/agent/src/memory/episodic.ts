import { randomBytes } from 'node:crypto';
import { close as closeFd, fsync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describeZodError } from '@usher/protocol';
import {
  type ActionEpisode,
  type ActionInput,
  AgentSessionIdSchema,
  type Episode,
  EpisodeSchema,
  type NoteEpisode,
  type NoteInput,
  type OutcomeEpisode,
  type OutcomeInput,
  type PlanEpisode,
  type PlanInput,
} from './episode.ts';

/** Where episode files go unless told otherwise, relative to the working directory (beside `logs/study`). */
export const DEFAULT_EPISODE_DIR = join('logs', 'agent');

export interface EpisodicLogOptions {
  /** The folder for the file; `null` keeps the episodes in memory only (tests, runs without files). */
  dir?: string | null;
  /** Validated against {@link AgentSessionIdSchema}; a fresh one is made when omitted. */
  agentSessionId?: string;
  /** The study session id, copied into every record; can be set later with {@link EpisodicLog.sessionId}. */
  sessionId?: string | null;
  now?: () => Date;
  /** Told of each record once it is written (the experimenter's console watches the agent with it). */
  onRecord?: (episode: Episode) => void;
}

/** A fresh agent session id like `a-20261121T101530Z-3f9c1a`: sortable by start time, safe in a file name. */
export function newAgentSessionId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
  return `a-${stamp}-${randomBytes(3).toString('hex')}`;
}

/** The file of an agent session's episodes: `<dir>/<agentSessionId>.episodes.jsonl`. Throws on an unsafe id. */
export function episodePath(dir: string, agentSessionId: string): string {
  return join(dir, `${checkedAgentSessionId(agentSessionId)}.episodes.jsonl`);
}

function checkedAgentSessionId(agentSessionId: string): string {
  const parsed = AgentSessionIdSchema.safeParse(agentSessionId);
  if (parsed.success) return parsed.data;
  throw new Error(`invalid agent session id ${JSON.stringify(agentSessionId)}: ${describeZodError(parsed.error)}`);
}

/**
 * The append-only episode log of one agent session (spec §2.4 `EpisodicMemory`). Like the study
 * log, every record is one synchronous `write(2)` of a whole line, so a crash (even `kill -9`)
 * leaves a valid prefix; {@link close} adds `fsync(2)`, on libuv's thread pool so that it holds up
 * no agent's thread. Each record is parsed against its schema and its links are checked before it
 * is written, so a bad record throws and writes nothing.
 */
export class EpisodicLog {
  readonly agentSessionId: string;
  /** The file, or null for an in-memory log. */
  readonly path: string | null;
  /** The study session id stamped on the next records. */
  sessionId: string | null;
  private fd: number | null = null;
  /** Set by the first {@link close}: the flush and close of the file, which every later call returns. */
  private closing: Promise<void> | null = null;
  private readonly episodes: Episode[] = [];
  private readonly planIds = new Set<string>();
  /** actionId → planId, and whether its outcome is in. */
  private readonly actions = new Map<string, { planId: string; settled: boolean }>();
  private readonly now: () => Date;
  private readonly onRecord: ((episode: Episode) => void) | undefined;

  /** Opens the log; the file is created exclusively, so an id is never appended to twice. */
  constructor(options: EpisodicLogOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.onRecord = options.onRecord;
    this.agentSessionId = checkedAgentSessionId(options.agentSessionId ?? newAgentSessionId(this.now()));
    this.sessionId = options.sessionId ?? null;
    const dir = options.dir === undefined ? DEFAULT_EPISODE_DIR : options.dir;
    if (dir === null) {
      this.path = null;
    } else {
      mkdirSync(dir, { recursive: true });
      this.path = episodePath(dir, this.agentSessionId);
      this.fd = openSync(this.path, 'wx');
    }
  }

  /** Every record written so far, oldest first. */
  get records(): readonly Episode[] {
    return this.episodes;
  }

  /** Writes a plan and returns it with its new `planId`. */
  plan(input: PlanInput): PlanEpisode {
    const planId = `plan-${this.episodes.length}`;
    const record = this.append({ ...input, kind: 'plan', planId }) as PlanEpisode;
    this.planIds.add(planId);
    return record;
  }

  /** Writes an action of a known plan and returns it with its new `actionId`. */
  action(input: ActionInput): ActionEpisode {
    if (!this.planIds.has(input.planId)) throw new Error(`action names unknown plan "${input.planId}"`);
    const actionId = `act-${this.episodes.length}`;
    const record = this.append({ ...input, kind: 'action', actionId }) as ActionEpisode;
    this.actions.set(actionId, { planId: input.planId, settled: false });
    return record;
  }

  /** Writes the one outcome of a known action; its `planId` is the action's. */
  outcome(input: OutcomeInput): OutcomeEpisode {
    const action = this.actions.get(input.actionId);
    if (action === undefined) throw new Error(`outcome names unknown action "${input.actionId}"`);
    if (action.settled) throw new Error(`action "${input.actionId}" already has an outcome; write a note instead`);
    const record = this.append({ ...input, kind: 'outcome', planId: action.planId }) as OutcomeEpisode;
    action.settled = true;
    return record;
  }

  /** Writes a free note (a participant instruction, a detected drift, a decision to stop). */
  note(input: NoteInput): NoteEpisode {
    return this.append({ ...input, kind: 'note' }) as NoteEpisode;
  }

  /**
   * Ends the log: later writes throw at once, and the promise resolves once the file is flushed
   * (`fsync(2)`) and closed, both on libuv's thread pool. Rejects with the flush's (or the close's)
   * error; the file is closed either way. Idempotent: every call returns the same promise. An
   * in-memory log has nothing to flush.
   */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    const fd = this.fd;
    this.fd = null;
    this.closing = fd === null ? Promise.resolve() : flushAndClose(fd, this.agentSessionId);
    return this.closing;
  }

  /** Whether {@link close} was called (the file may still be being flushed). */
  get closed(): boolean {
    return this.closing !== null;
  }

  private append(fields: Record<string, unknown>): Episode {
    if (this.closed) throw new Error(`episode log ${this.agentSessionId} is closed`);
    const candidate = {
      ...fields,
      seq: this.episodes.length,
      timestamp: this.now().toISOString(),
      sessionId: this.sessionId,
    };
    const parsed = EpisodeSchema.safeParse(candidate);
    if (!parsed.success) throw new Error(`invalid ${String(fields.kind)} episode: ${describeZodError(parsed.error)}`);
    if (this.fd !== null) writeLine(this.fd, `${JSON.stringify(parsed.data)}\n`);
    this.episodes.push(parsed.data);
    this.onRecord?.(parsed.data);
    return parsed.data;
  }
}

/** `fsync` then `close` on libuv's pool; the file is closed even when the flush fails, and the first error is the answer. */
function flushAndClose(fd: number, agentSessionId: string): Promise<void> {
  return new Promise((resolve, reject) => {
    fsync(fd, (flushError) => {
      closeFd(fd, (closeError) => {
        const error = flushError ?? closeError;
        if (error)
          reject(new Error(`episode log ${agentSessionId} could not be flushed: ${error.message}`, { cause: error }));
        else resolve();
      });
    });
  });
}

function writeLine(fd: number, line: string): void {
  const bytes = Buffer.from(line);
  // A file takes a whole write unless the disk is full; finish a short one rather than leave half a line.
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
}
