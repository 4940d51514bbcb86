import { z } from 'zod';

/**
 * The experimenter's console API (`/api/console/…`, packages/study-host/README.md "Study mode"): what
 * the server sends and the console page reads. One definition for both sides; the server's tests
 * hold what it sends to these schemas.
 */

/** Where a participant is, as the console lists it. */
export const ConsoleStatusSchema = z.enum([
  'consent',
  'briefing',
  'booking',
  'questionnaire',
  'done',
  'gave-up',
  'dropped',
]);
export type ConsoleStatus = z.infer<typeof ConsoleStatusSchema>;

/** One participant as the console shows them. */
export const ParticipantRowSchema = z.object({
  id: z.string(),
  externalId: z.string().nullable(),
  room: z.string(),
  condition: z.object({ id: z.string(), label: z.string(), agent: z.string() }).nullable(),
  status: ConsoleStatusSchema,
  taskIndex: z.number().int().min(0),
  taskCount: z.number().int().min(0),
  task: z.object({ id: z.string(), title: z.string() }).nullable(),
  /** The booking stage the participant's page shows (`booked` once the booking is made), while it is connected. */
  stage: z.string().nullable(),
  /** Whether the participant's page is connected now. */
  online: z.boolean(),
  /** `running`, `paused` (an experimenter has the room), or `none`. */
  agent: z.enum(['running', 'paused', 'none']),
  /** Agents connected to the room now (the condition's, or an experimenter stepping in). */
  agentsInRoom: z.number().int().min(0),
  sessionId: z.string().nullable(),
  /** Records in the open study log. */
  events: z.number().int().min(0),
  /** Since the current task started (ms by the study's clock), while on a task. */
  timeOnTaskMs: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ParticipantRow = z.infer<typeof ParticipantRowSchema>;

/** The study at a glance (`GET /api/console/study`, beside the participants). */
export const ConsoleStudySchema = z.object({
  id: z.string(),
  title: z.string(),
  conditions: z.array(z.object({ id: z.string(), label: z.string(), agent: z.string() })),
  tasks: z.array(z.object({ id: z.string(), title: z.string() })),
});
export type ConsoleStudy = z.infer<typeof ConsoleStudySchema>;

/** One study session of the study, as the console lists it for replay. */
export const SessionSummarySchema = z.object({
  sessionId: z.string(),
  participantId: z.string(),
  conditionId: z.string(),
  taskId: z.string(),
  /** When the session opened (its first record's timestamp). */
  startedAt: z.string(),
  bytes: z.number().int().min(0),
  /** Opened again after a restart or an idle close (the first record says so). */
  resumed: z.boolean(),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

/**
 * What the console reads of one record of an agent's episode log (the agent's `EpisodeSchema`,
 * packages/agent/src/memory/episode.ts, holds the whole record): the fields it shows; the others
 * pass through.
 */
export const ConsoleEpisodeSchema = z.looseObject({
  kind: z.enum(['plan', 'action', 'outcome', 'note']),
  seq: z.number().int().min(0),
  timestamp: z.string(),
  goal: z.string().optional(),
  remainingSteps: z.array(z.string()).optional(),
  type: z.string().optional(),
  reason: z.string().optional(),
  payload: z.record(z.string(), z.unknown()).optional(),
  ok: z.boolean().optional(),
  code: z.string().optional(),
  detail: z.string().optional(),
  text: z.string().optional(),
});
export type ConsoleEpisode = z.infer<typeof ConsoleEpisodeSchema>;

/** The live feed's `agent` event: an episode record as it is written, or the agent paused, resumed, started or stopped. */
export const AgentFeedEventSchema = z.discriminatedUnion('kind', [
  z.object({ room: z.string(), kind: z.literal('episode'), episode: ConsoleEpisodeSchema }),
  z.object({
    room: z.string(),
    kind: z.enum(['paused', 'resumed', 'started', 'stopped']),
    by: z.string().optional(),
  }),
]);
export type AgentFeedEvent = z.infer<typeof AgentFeedEventSchema>;

const count = z.number().int().min(0).nullable();
const measure = z.number().nullable();

/**
 * One condition's collaboration measures, live (`GET /api/console/summary`): the export's
 * `conditions` table, row for row (docs/data-dictionary.md defines each; null where the
 * condition has no such feature, or nothing to average yet).
 */
export const ConsoleConditionSummarySchema = z.object({
  conditionId: z.string(),
  agent: z.string(),
  pilot: z.boolean(),
  participants: z.number().int().min(0),
  tasksStarted: z.number().int().min(0),
  booked: z.number().int().min(0),
  successes: z.number().int().min(0),
  successRate: measure,
  meanTimeOnTaskS: measure,
  meanTimeToBookingS: measure,
  meanAgentShare: measure,
  meanParticipantShare: measure,
  meanTimeToAgentFirstActionS: measure,
  meanInterventions: measure,
  tasksWithIntervention: count,
  meanTimeToFirstInterventionS: measure,
  pauses: count,
  takeOvers: count,
  rejectedProposals: count,
  chatCorrections: count,
  undoneAgentSelections: count,
  agentQuestions: count,
  mistakesCaught: count,
  mistakesMissed: count,
  overReliance: measure,
  overriddenCorrect: count,
});
export type ConsoleConditionSummary = z.infer<typeof ConsoleConditionSummarySchema>;
