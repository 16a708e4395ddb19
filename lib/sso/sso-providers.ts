import "server-only";
import { ssoSettingsRequestSchema, zodIssues, type SsoSettingsInput } from "@/contract";
import { decryptSecret, encryptSecret, type PrismaClient } from "@/lib/db";

/**
 * The OpenID providers people may sign in with: one per workspace at most, set in Settings (the
 * `sso_providers` table, its client secret sealed with the key of every stored secret) or, for a
 * headless install, by TRELLIS_OIDC_* variables (the provider id `oidc`).
 */

export type JoinRole = SsoSettingsInput["defaultRole"];

export interface SsoProviderConfig extends Omit<SsoSettingsInput, "clientSecret" | "groupsClaim"> {
  providerId: string;
  workspaceId: string;
  clientSecret: string | null;
  groupsClaim: string | null;
  source: "settings" | "environment";
  updatedAt: Date | null;
}

/** The provider id of a workspace's provider set in Settings: its callback is /api/auth/callback/<id>. */
export const settingsProviderId = (workspaceId: string) => `ws-${workspaceId}`;
export const ENVIRONMENT_PROVIDER_ID = "oidc";

/** The sealed secret's authenticated data: a ciphertext moved to another provider does not open. */
const secretName = (providerId: string) => `sso:${providerId}:client-secret`;

type Row = Awaited<ReturnType<PrismaClient["ssoProvider"]["findMany"]>>[number];

function configOf(row: Row, key: () => Buffer): SsoProviderConfig {
  const sealed =
    row.secretCiphertext && row.secretIv && row.secretAuthTag
      ? { ciphertext: row.secretCiphertext, iv: row.secretIv, authTag: row.secretAuthTag }
      : null;
  return {
    providerId: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    issuer: row.issuer,
    clientId: row.clientId,
    clientSecret: sealed ? decryptSecret(key(), secretName(row.id), sealed) : null,
    allowedDomains: row.allowedDomains,
    defaultRole: row.defaultRole as JoinRole,
    groupsClaim: row.groupsClaim,
    groupRoles: row.groupRoles as Record<string, JoinRole>,
    passwordSignIn: row.passwordSignIn,
    source: "settings",
    updatedAt: row.updatedAt,
  };
}

/** TRELLIS_OIDC_* as settings; null when TRELLIS_OIDC_ISSUER is unset. @throws Error naming the variable that is wrong */
export function environmentSettings(env: Record<string, string | undefined>): SsoSettingsInput | null {
  const issuer = env.TRELLIS_OIDC_ISSUER?.trim();
  if (!issuer) return null;
  const list = (value: string | undefined) =>
    (value ?? "")
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean);
  const VARIABLES: Record<string, string> = {
    name: "TRELLIS_OIDC_NAME",
    issuer: "TRELLIS_OIDC_ISSUER",
    clientId: "TRELLIS_OIDC_CLIENT_ID",
    clientSecret: "TRELLIS_OIDC_CLIENT_SECRET",
    allowedDomains: "TRELLIS_OIDC_ALLOWED_DOMAINS",
    defaultRole: "TRELLIS_OIDC_DEFAULT_ROLE",
    groupsClaim: "TRELLIS_OIDC_GROUPS_CLAIM",
    groupRoles: "TRELLIS_OIDC_GROUP_ROLES",
    passwordSignIn: "TRELLIS_OIDC_PASSWORD_SIGN_IN",
  };
  let groupRoles: unknown = {};
  if (env.TRELLIS_OIDC_GROUP_ROLES?.trim()) {
    try {
      groupRoles = JSON.parse(env.TRELLIS_OIDC_GROUP_ROLES);
    } catch {
      throw new Error(
        'TRELLIS_OIDC_GROUP_ROLES must be a JSON object of group to role, such as {"trellis-admins":"admin"}.',
      );
    }
  }
  const password = env.TRELLIS_OIDC_PASSWORD_SIGN_IN?.trim().toLowerCase();
  if (password && password !== "on" && password !== "off")
    throw new Error(`TRELLIS_OIDC_PASSWORD_SIGN_IN must be on or off; got "${env.TRELLIS_OIDC_PASSWORD_SIGN_IN}".`);
  const parsed = ssoSettingsRequestSchema.safeParse({
    name: env.TRELLIS_OIDC_NAME?.trim() || "single sign-on",
    issuer,
    clientId: env.TRELLIS_OIDC_CLIENT_ID ?? "",
    ...(env.TRELLIS_OIDC_CLIENT_SECRET ? { clientSecret: env.TRELLIS_OIDC_CLIENT_SECRET } : {}),
    allowedDomains: list(env.TRELLIS_OIDC_ALLOWED_DOMAINS),
    ...(env.TRELLIS_OIDC_DEFAULT_ROLE ? { defaultRole: env.TRELLIS_OIDC_DEFAULT_ROLE.trim() } : {}),
    ...(env.TRELLIS_OIDC_GROUPS_CLAIM ? { groupsClaim: env.TRELLIS_OIDC_GROUPS_CLAIM } : {}),
    groupRoles,
    passwordSignIn: password !== "off",
  });
  if (parsed.success) return parsed.data;
  const [first] = zodIssues(parsed.error);
  const field = first?.path.split(/[.[]/)[0] ?? "";
  throw new Error(`${VARIABLES[field] ?? "TRELLIS_OIDC_*"}: ${first?.message ?? "is not valid"}.`);
}

export function ssoProviders(prisma: PrismaClient, key: () => Buffer, env: Record<string, string | undefined>) {
  async function environmentProvider(): Promise<SsoProviderConfig | null> {
    const settings = environmentSettings(env);
    if (!settings) return null;
    const named = env.TRELLIS_OIDC_WORKSPACE?.trim();
    const workspace = named
      ? await prisma.workspace.findUnique({ where: { id: named }, select: { id: true } })
      : await prisma.workspace.findFirst({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
    if (!workspace) {
      if (named) throw new Error(`TRELLIS_OIDC_WORKSPACE names no workspace: "${named}".`);
      return null;
    }
    const { clientSecret, groupsClaim, ...rest } = settings;
    return {
      ...rest,
      providerId: ENVIRONMENT_PROVIDER_ID,
      workspaceId: workspace.id,
      clientSecret: clientSecret ?? null,
      groupsClaim: groupsClaim ?? null,
      source: "environment",
      updatedAt: null,
    };
  }

  return {
    /** Every provider, the environment's first; one workspace set by both keeps the environment's. */
    async all(): Promise<SsoProviderConfig[]> {
      const fromEnvironment = await environmentProvider();
      const rows = await prisma.ssoProvider.findMany({ orderBy: { createdAt: "asc" } });
      const stored = rows
        .filter((row) => row.workspaceId !== fromEnvironment?.workspaceId)
        .map((row) => configOf(row, key));
      return fromEnvironment ? [fromEnvironment, ...stored] : stored;
    },

    /** The workspace's provider, or null. */
    async of(workspaceId: string): Promise<SsoProviderConfig | null> {
      return (await this.all()).find((provider) => provider.workspaceId === workspaceId) ?? null;
    },

    /** Stores the workspace's provider (a secret left out keeps the stored one), answering it as stored. */
    async save(workspaceId: string, settings: SsoSettingsInput): Promise<SsoProviderConfig> {
      const id = settingsProviderId(workspaceId);
      const sealed =
        settings.clientSecret === undefined
          ? {}
          : (() => {
              const { ciphertext, iv, authTag } = encryptSecret(key(), secretName(id), settings.clientSecret!);
              return { secretCiphertext: ciphertext, secretIv: iv, secretAuthTag: authTag };
            })();
      const data = {
        name: settings.name,
        issuer: settings.issuer,
        clientId: settings.clientId,
        allowedDomains: settings.allowedDomains,
        defaultRole: settings.defaultRole,
        groupsClaim: settings.groupsClaim ?? null,
        groupRoles: settings.groupRoles,
        passwordSignIn: settings.passwordSignIn,
        ...sealed,
      };
      const row = await prisma.ssoProvider.upsert({
        where: { workspaceId },
        create: { id, workspaceId, ...data },
        update: data,
      });
      return configOf(row, key);
    },

    /** Removes the workspace's provider; false when it had none. */
    async remove(workspaceId: string): Promise<boolean> {
      return (await prisma.ssoProvider.deleteMany({ where: { workspaceId } })).count > 0;
    },
  };
}

export type SsoProviders = ReturnType<typeof ssoProviders>;
