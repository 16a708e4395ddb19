import "server-only";
import { recordAudit } from "@/lib/audit/audit-log";
import type { PrismaClient } from "@/lib/db";

/**
 * A sign-in, told to the audit log of every workspace the person belongs to (the log is kept per
 * workspace, and a sign-in opens them all). Answers whether the person was known: an attempt
 * naming an email no account has is in no workspace's log here (the attempt limits of
 * sign-in-limits.ts still count a password guess).
 */
export async function recordSignIn(
  prisma: PrismaClient,
  attempt: ({ email: string } | { userId: string }) & {
    address: string | null;
    succeeded: boolean;
    method: "password" | "oidc";
    provider?: string;
    reason?: string;
  },
): Promise<boolean> {
  const user = await prisma.user.findFirst({
    where: "userId" in attempt ? { id: attempt.userId } : { email: { equals: attempt.email, mode: "insensitive" } },
    select: { id: true, name: true, email: true, memberships: { select: { workspaceId: true } } },
  });
  if (!user) return false;
  const by = { actor: { kind: "user" as const, userId: user.id, name: user.name }, address: attempt.address };
  const summary = {
    method: attempt.method,
    ...(attempt.provider ? { provider: attempt.provider } : {}),
    ...(attempt.reason ? { reason: attempt.reason } : {}),
  };
  for (const { workspaceId } of user.memberships) {
    await recordAudit(prisma, workspaceId, by, {
      action: attempt.succeeded ? "signIn.succeeded" : "signIn.failed",
      object: { type: "user", id: user.id, name: user.email },
      summary,
    });
  }
  return true;
}
