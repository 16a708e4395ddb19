import "server-only";
import type { PrismaClient } from "@/lib/db";
import type { SsoProviderConfig } from "@/lib/sso/sso-providers";

/**
 * Password sign-in, where a workspace's provider turned it off: a member of that workspace (an
 * owner excepted, so a provider that is down locks nobody out of fixing it) is told to use the
 * provider; null when the password may be checked.
 */
export async function passwordSignInRefusal(
  options: { prisma: PrismaClient; sso?: { providers(): Promise<SsoProviderConfig[]> } },
  email: string | undefined,
): Promise<Response | null> {
  if (!email || !options.sso) return null;
  const closed = (await options.sso.providers()).filter((provider) => !provider.passwordSignIn);
  if (closed.length === 0) return null;
  const memberships = await options.prisma.workspaceMember.findMany({
    where: {
      user: { email: { equals: email, mode: "insensitive" } },
      workspaceId: { in: closed.map((provider) => provider.workspaceId) },
      role: { not: "owner" },
    },
    select: { workspaceId: true },
  });
  const provider = closed.find((candidate) =>
    memberships.some((member) => member.workspaceId === candidate.workspaceId),
  );
  if (!provider) return null;
  return Response.json(
    {
      code: "PASSWORD_SIGN_IN_OFF",
      message: `Sign in with ${provider.name}: password sign-in is off for its workspace.`,
    },
    { status: 403 },
  );
}
