import "server-only";
import { APIError } from "better-auth/api";
import { genericOAuth } from "better-auth/plugins";
import { AsyncLocalStorage } from "node:async_hooks";
import { roleAtLeast, type WorkspaceRole } from "@/contract";
import { recordAudit } from "@/lib/audit/audit-log";
import { recordSignIn } from "./sign-in-audit";
import type { PrismaClient } from "@/lib/db";
import { discoveryUrlOf } from "@/lib/sso/oidc-discovery";
import type { SsoProviderConfig } from "@/lib/sso/sso-providers";

/**
 * Sign-in with a workspace's OpenID provider, on better-auth's generic OAuth plugin: discovery,
 * the code flow with PKCE, state and nonce, and the ID token verified against the provider's keys
 * (issuer, audience, expiry, nonce) are better-auth's. What is Trellis's: which emails may come
 * in, the workspace a person joins and with which role, and the audit entries.
 */

/** What one callback learned, for the hooks that run inside it and the audit entry after it. */
export interface OidcAttempt {
  provider: SsoProviderConfig;
  /** The client's address, for the audit entries. */
  address: string | null;
  email?: string;
  groups?: string[];
  userId?: string;
  refusal?: string;
}

export const oidcAttempt = new AsyncLocalStorage<OidcAttempt>();

function groupsOf(profile: Record<string, unknown>, claim: string | null): string[] {
  if (!claim) return [];
  const value = profile[claim];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === "string");
  return typeof value === "string" ? [value] : [];
}

/** genericOAuth's configuration of every provider: verified ID tokens only, PKCE, tokens requested with the groups claim's scope when one is named. */
export function oidcPlugin(providers: readonly SsoProviderConfig[]) {
  return genericOAuth({
    config: providers.map((provider) => ({
      providerId: provider.providerId,
      name: provider.name,
      discoveryUrl: discoveryUrlOf(provider.issuer),
      requireIdTokenVerification: true,
      clientId: provider.clientId,
      ...(provider.clientSecret ? { clientSecret: provider.clientSecret } : {}),
      scopes: ["openid", "email", "profile"],
      pkce: true,
      mapProfileToUser: (profile: Record<string, unknown>) => {
        const attempt = oidcAttempt.getStore();
        if (attempt) {
          attempt.email = typeof profile.email === "string" ? profile.email.toLowerCase() : undefined;
          attempt.groups = groupsOf(profile, provider.groupsClaim);
        }
        return {};
      },
    })),
  });
}

const EMAIL_DOMAIN_NOT_ALLOWED = "EMAIL_DOMAIN_NOT_ALLOWED";

/** Refuses an email outside the provider's allowed domains (better-auth redirects with the code). */
export function refuseEmailOutsideDomains(provider: SsoProviderConfig, email: string): void {
  if (provider.allowedDomains.length === 0) return;
  const domain = email.toLowerCase().split("@").at(-1) ?? "";
  if (provider.allowedDomains.includes(domain)) return;
  const attempt = oidcAttempt.getStore();
  const message = `${email} is not of an allowed domain of ${provider.name} (${provider.allowedDomains.join(", ")}).`;
  if (attempt) attempt.refusal = message;
  throw APIError.from("FORBIDDEN", { code: EMAIL_DOMAIN_NOT_ALLOWED, message });
}

/** The role groups give (the strongest), else null. */
export function roleFromGroups(provider: SsoProviderConfig, groups: readonly string[]): WorkspaceRole | null {
  let best: WorkspaceRole | null = null;
  for (const group of groups) {
    const role = provider.groupRoles[group];
    if (role && (!best || roleAtLeast(role, best))) best = role;
  }
  return best;
}

/**
 * Just-in-time membership, as a session is made for a person the provider signed in: a newcomer
 * joins the provider's workspace with the role their groups give, else the default; a member
 * whose groups give a role (group roles configured) gets it at each sign-in, an owner excepted.
 */
export async function joinProviderWorkspace(
  prisma: PrismaClient,
  attempt: OidcAttempt,
  user: { id: string; name: string },
): Promise<void> {
  const { provider, address } = attempt;
  const fromGroups = roleFromGroups(provider, attempt.groups ?? []);
  const by = { actor: { kind: "user" as const, userId: user.id, name: user.name }, address };
  await prisma.$transaction(async (tx) => {
    const existing = await tx.workspaceMember.findUnique({
      where: { workspaceId_userId: { workspaceId: provider.workspaceId, userId: user.id } },
      select: { role: true },
    });
    if (!existing) {
      const role = fromGroups ?? provider.defaultRole;
      await tx.workspaceMember.create({ data: { workspaceId: provider.workspaceId, userId: user.id, role } });
      await recordAudit(tx, provider.workspaceId, by, {
        action: "member.join",
        object: { type: "member", id: user.id, name: user.name },
        summary: { after: { role, via: provider.name } },
      });
      return;
    }
    if (!fromGroups || existing.role === "owner" || existing.role === fromGroups) return;
    await tx.workspaceMember.update({
      where: { workspaceId_userId: { workspaceId: provider.workspaceId, userId: user.id } },
      data: { role: fromGroups },
    });
    await recordAudit(tx, provider.workspaceId, by, {
      action: "member.role",
      object: { type: "member", id: user.id, name: user.name },
      summary: { before: { role: existing.role }, after: { role: fromGroups }, via: `${provider.name} groups` },
    });
  });
}

/**
 * The sign-in's audit entry: a success in each of the person's workspaces; a refusal once the
 * provider vouched for an email (in that person's workspaces, or the provider's when nobody has
 * the email: the attempt is named by it).
 */
export async function recordProviderSignIn(prisma: PrismaClient, attempt: OidcAttempt): Promise<void> {
  const method = { method: "oidc" as const, provider: attempt.provider.name, address: attempt.address };
  if (attempt.userId) {
    await recordSignIn(prisma, { ...method, userId: attempt.userId, succeeded: true });
    return;
  }
  if (!attempt.email) return;
  const known = await recordSignIn(prisma, {
    ...method,
    email: attempt.email,
    succeeded: false,
    reason: attempt.refusal,
  });
  if (known) return;
  await recordAudit(
    prisma,
    attempt.provider.workspaceId,
    {
      actor: { kind: "user", userId: `${attempt.provider.providerId}:${attempt.email}`, name: attempt.email },
      address: attempt.address,
    },
    {
      action: "signIn.failed",
      object: { type: "user", id: attempt.email, name: attempt.email },
      summary: {
        method: "oidc",
        provider: attempt.provider.name,
        ...(attempt.refusal ? { reason: attempt.refusal } : {}),
      },
    },
  );
}
