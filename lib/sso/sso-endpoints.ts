import "server-only";
import { ssoSettingsRequestSchema, type SsoSettings, type SsoSettingsAnswer } from "@/contract";
import type { AuditRequest } from "@/lib/audit";
import { addressedUrl } from "@/lib/auth";
import { endpoint } from "@/lib/http/endpoint";
import { RequestError } from "@/lib/http/errors";
import { readJsonRequest } from "@/lib/http/read-json";
import { discoverProvider, DiscoveryProblem } from "./oidc-discovery";
import type { SsoProviderConfig, SsoProviders } from "./sso-providers";

/** The provider as its owner sees it: never the client secret. */
function settingsOf(provider: SsoProviderConfig, origin: string): SsoSettings {
  return {
    providerId: provider.providerId,
    name: provider.name,
    issuer: provider.issuer,
    clientId: provider.clientId,
    hasClientSecret: provider.clientSecret !== null,
    allowedDomains: provider.allowedDomains,
    defaultRole: provider.defaultRole,
    groupsClaim: provider.groupsClaim,
    groupRoles: provider.groupRoles,
    passwordSignIn: provider.passwordSignIn,
    redirectUri: `${origin}/api/auth/callback/${provider.providerId}`,
    source: provider.source,
    updatedAt: provider.updatedAt?.toISOString() ?? null,
  };
}

/** The facts an audit entry keeps of a provider: never its secret. */
const auditedFacts = (provider: SsoProviderConfig) => ({
  name: provider.name,
  issuer: provider.issuer,
  clientId: provider.clientId,
  allowedDomains: provider.allowedDomains,
  defaultRole: provider.defaultRole,
  groupsClaim: provider.groupsClaim,
  groupRoles: provider.groupRoles,
  passwordSignIn: provider.passwordSignIn,
});

/**
 * GET, PUT and DELETE /api/sso (docs/CONTRACT.md section 17): the workspace's OpenID provider,
 * owners only. PUT reads the provider's discovery document first: a provider that cannot be
 * reached or whose document is wrong is refused (400 naming `issuer`) and nothing is stored.
 */
export function ssoEndpoints(
  providers: () => SsoProviders,
  audit: AuditRequest,
  fetcher: () => typeof fetch = () => fetch,
) {
  const environmentOwned = (provider: SsoProviderConfig | null) => {
    if (provider?.source === "environment")
      throw new RequestError(
        "conflict",
        "This workspace's provider is set by the server's TRELLIS_OIDC_* variables: change them there.",
      );
  };
  return {
    get: endpoint("getSsoSettings", async (request, _params, { workspace }) => {
      const provider = await providers().of(workspace.id);
      const answer: SsoSettingsAnswer = { provider: provider && settingsOf(provider, addressedUrl(request).origin) };
      return Response.json(answer);
    }),
    put: endpoint("putSsoSettings", async (request, _params, member) => {
      const settings = await readJsonRequest(request, ssoSettingsRequestSchema, {
        subject: "The single sign-on settings",
        maxBytes: 32 * 1024,
      });
      const before = await providers().of(member.workspace.id);
      environmentOwned(before);
      if (settings.clientSecret === undefined && !before?.clientSecret)
        throw new RequestError(
          "invalid_request",
          "The single sign-on settings are invalid: clientSecret: is required",
          [{ path: "clientSecret", message: "is required (the provider's secret for this client)" }],
        );
      try {
        await discoverProvider(settings.issuer, fetcher());
      } catch (error) {
        if (!(error instanceof DiscoveryProblem)) throw error;
        throw new RequestError("invalid_request", error.message, [{ path: "issuer", message: error.message }]);
      }
      const saved = await providers().save(member.workspace.id, settings);
      await audit(request, member, {
        action: "sso.configure",
        object: { type: "ssoProvider", id: saved.providerId, name: saved.name },
        summary: {
          before: before ? auditedFacts(before) : null,
          after: auditedFacts(saved),
          clientSecretChanged: settings.clientSecret !== undefined,
        },
      });
      return Response.json({ provider: settingsOf(saved, addressedUrl(request).origin) } satisfies SsoSettingsAnswer);
    }),
    remove: endpoint("deleteSsoSettings", async (request, _params, member) => {
      const before = await providers().of(member.workspace.id);
      environmentOwned(before);
      if (!before || !(await providers().remove(member.workspace.id)))
        throw new RequestError("not_found", "This workspace has no single sign-on provider.");
      await audit(request, member, {
        action: "sso.configure",
        object: { type: "ssoProvider", id: before.providerId, name: before.name },
        summary: { before: auditedFacts(before), after: null },
      });
      return new Response(null, { status: 204 });
    }),
  };
}

export type SsoEndpoints = ReturnType<typeof ssoEndpoints>;
