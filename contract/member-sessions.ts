import { z } from "zod";
import { timestampSchema } from "./timestamp";

/**
 * A member's browser sessions, for the workspace's admins (docs/CONTRACT.md section 7): where and
 * when each was made and last used, never its token. Revoking one signs that browser out at once.
 */
export const memberSessionSchema = z.object({
  id: z.string().describe("The session's id (not its token, which is never shown)."),
  createdAt: timestampSchema.describe("When the person signed in."),
  lastActiveAt: timestampSchema.describe("When the session was last refreshed."),
  expiresAt: timestampSchema,
  address: z.string().nullable().describe("The client address it was made from."),
  userAgent: z.string().nullable(),
});
export type MemberSession = z.infer<typeof memberSessionSchema>;

export const memberSessionsSchema = z.object({ sessions: z.array(memberSessionSchema) });
export type MemberSessions = z.infer<typeof memberSessionsSchema>;

/** What revoking every session of a member ended. */
export const sessionsRevokedSchema = z.object({ revoked: z.number().int() });
export type SessionsRevoked = z.infer<typeof sessionsRevokedSchema>;
