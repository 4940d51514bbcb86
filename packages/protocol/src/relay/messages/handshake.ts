import { z } from 'zod';

/** A relay room name: `relay.join`'s `sessionId` (DESIGN.md: the relay room, default `default`). */
export const RoomIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a room is 1–64 letters, digits, dots, dashes or underscores');

export const ROLES = ['host', 'agent', 'observer'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** A study session as the relay knows it. */
export const StudySessionInfoSchema = z.object({
  sessionId: z.string(),
  studyId: z.string(),
  participantId: z.string(),
});

/** §4.0 `relay.join`: join a room as host, agent or read-only observer. */
export const RelayJoinPayload = z.object({
  role: RoleSchema,
  sessionId: RoomIdSchema.default('default'),
});

/**
 * §4.0 `relay.joined`: the answer to `relay.join`. Sent without `replyTo` to the agents of a room
 * when a host joins it (`replaced` says it took the place of another host).
 */
export const RelayJoinedPayload = z.object({
  role: RoleSchema,
  sessionId: RoomIdSchema,
  studySession: StudySessionInfoSchema.nullable().optional(),
  hostPresent: z.boolean().optional(),
  replaced: z.boolean().optional(),
});
