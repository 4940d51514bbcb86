import { StageSchema } from '@usher/protocol';
import { z } from 'zod';

/**
 * One line of an agent session's episode log (spec §2.4 `EpisodicMemory`): the plan lineage and
 * the action history with results. Records link by id: an `action` names the `planId` that
 * produced it, an `outcome` names the `actionId` it reports on.
 */
const base = {
  /** 0, 1, 2 … in the file, with no gaps. */
  seq: z.number().int().min(0),
  /** ISO 8601 with milliseconds. */
  timestamp: z.iso.datetime(),
  /** The study session id (`session.started`), or null when no study session is active. */
  sessionId: z.string().min(1).nullable(),
};
const id = z.string().min(1);

/** A new or revised plan (spec §6 `NavigationPlan`, without its next action, which is the next record). */
export const PlanEpisodeSchema = z.strictObject({
  ...base,
  kind: z.literal('plan'),
  planId: id,
  goal: z.string().min(1),
  stage: StageSchema.nullable(),
  remainingSteps: z.array(z.string()),
  confidence: z.number().min(0).max(1),
  /** The plan this one replaces, after a replan. */
  supersedes: id.optional(),
});

/** One message the agent sent (spec §4 `PlannedAction`), with the UI fingerprint it was planned against. */
export const ActionEpisodeSchema = z.strictObject({
  ...base,
  kind: z.literal('action'),
  planId: id,
  actionId: id,
  type: z.enum(['tool.call', 'agent.message', 'snapshot.get', 'session.end']),
  reason: z.string().trim().min(1),
  payload: z.record(z.string(), z.unknown()),
  stage: StageSchema.nullable(),
  fingerprint: z.string().optional(),
});

/** What came of an action (spec §4 `ActionOutcome`): `code` is the protocol's or a runtime one (`TIMEOUT_RESULT` …). */
export const OutcomeEpisodeSchema = z.strictObject({
  ...base,
  kind: z.literal('outcome'),
  planId: id,
  actionId: id,
  ok: z.boolean(),
  code: z.string().min(1).optional(),
  replan: z.boolean(),
  /** A line a person can read, e.g. the host's error message. */
  detail: z.string().optional(),
  /** The UI fingerprint observed after the action. */
  fingerprint: z.string().optional(),
});

/** Anything else worth keeping: a participant instruction, a drift, a decision to stop. */
export const NoteEpisodeSchema = z.strictObject({
  ...base,
  kind: z.literal('note'),
  text: z.string().min(1),
  planId: id.optional(),
  actionId: id.optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

export const EpisodeSchema = z.discriminatedUnion('kind', [
  PlanEpisodeSchema,
  ActionEpisodeSchema,
  OutcomeEpisodeSchema,
  NoteEpisodeSchema,
]);
export type PlanEpisode = z.infer<typeof PlanEpisodeSchema>;
export type ActionEpisode = z.infer<typeof ActionEpisodeSchema>;
export type OutcomeEpisode = z.infer<typeof OutcomeEpisodeSchema>;
export type NoteEpisode = z.infer<typeof NoteEpisodeSchema>;
export type Episode = z.infer<typeof EpisodeSchema>;

/** The fields each kind's caller supplies; the log adds `seq`, `timestamp`, `sessionId`, `kind` and ids. */
type Fields = 'seq' | 'timestamp' | 'sessionId' | 'kind';
export type PlanInput = Omit<PlanEpisode, Fields | 'planId'>;
export type ActionInput = Omit<ActionEpisode, Fields | 'actionId'>;
export type OutcomeInput = Omit<OutcomeEpisode, Fields | 'planId'>;
export type NoteInput = Omit<NoteEpisode, Fields>;

/**
 * An agent session id as used in a file name: a letter or digit, then letters, digits, `.`, `_`
 * or `-`, at most 128 characters in all. No `/`, `\` or leading dot, so `<dir>/<id>.episodes.jsonl`
 * always stays inside `<dir>` and is never hidden.
 */
export const AgentSessionIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, {
  message: 'an agent session id is 1–128 of [A-Za-z0-9._-], starting with a letter or digit',
});
