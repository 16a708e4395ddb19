import "server-only";

/**
 * A password change ends every other session of the user, whatever the client asks: someone who
 * changes a password because it leaked must not have to know to ask for it, and an attacker
 * holding a stolen session must not keep it. better-auth's `/change-password` does this when its
 * body says `revokeOtherSessions: true` (it deletes the user's sessions and signs the caller in
 * afresh, with a new cookie), so a before-hook sets that field on every such request.
 *
 * Answers the before-hook's context change for `/change-password`, or undefined for other paths.
 */
export function endOtherSessionsOnPasswordChange(context: {
  path: string;
  body?: unknown;
}): { context: { body: Record<string, unknown> } } | undefined {
  if (context.path !== "/change-password") return undefined;
  const body =
    typeof context.body === "object" && context.body !== null ? (context.body as Record<string, unknown>) : {};
  return { context: { body: { ...body, revokeOtherSessions: true } } };
}
