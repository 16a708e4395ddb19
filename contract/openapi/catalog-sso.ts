import { ssoSettingsRequestSchema } from "../sso";
import type { ApiOperation } from "./operation";
import { ssoSettingsAnswerSchema } from "./schemas-sso";

/** Single sign-on settings (docs/CONTRACT.md section 17): lib/sso/sso-endpoints.ts. */

const WHO =
  "Owners only. People the provider signs in are linked by its subject (`sub`), not their email, and join this workspace: a newcomer with the role their groups give (`groupRoles`, read from `groupsClaim`), else `defaultRole`.";

export const SSO_OPERATIONS = [
  {
    operationId: "getSsoSettings",
    method: "GET",
    path: "/api/sso",
    tag: "Single sign-on",
    summary: "The workspace's OpenID Connect provider",
    description: `${WHO} The client secret is never answered.`,
    access: "member",
    role: "owner",
    answers: [{ status: 200, description: "The provider, or null.", schema: ssoSettingsAnswerSchema }],
  },
  {
    operationId: "putSsoSettings",
    method: "PUT",
    path: "/api/sso",
    tag: "Single sign-on",
    summary: "Set the workspace's OpenID Connect provider",
    description: `${WHO} The provider's discovery document (\`<issuer>/.well-known/openid-configuration\`) is read first: one that cannot be reached, is not JSON, names another issuer or lacks an endpoint is refused (400 naming \`issuer\`) and nothing is stored. The client secret is stored encrypted; left out, the stored one is kept. A provider set by the server's TRELLIS_OIDC_* variables answers 409.`,
    access: "member",
    role: "owner",
    request: {
      schema: ssoSettingsRequestSchema,
      required: true,
      example: {
        name: "Acme Keycloak",
        issuer: "https://sso.acme.example/realms/acme",
        clientId: "trellis",
        clientSecret: "from-the-provider",
        allowedDomains: ["acme.example"],
        defaultRole: "viewer",
        groupsClaim: "groups",
        groupRoles: { "trellis-admins": "admin", "trellis-builders": "editor" },
        passwordSignIn: true,
      },
    },
    answers: [{ status: 200, description: "The provider as stored.", schema: ssoSettingsAnswerSchema }],
    errors: [409],
  },
  {
    operationId: "deleteSsoSettings",
    method: "DELETE",
    path: "/api/sso",
    tag: "Single sign-on",
    summary: "Remove the workspace's OpenID Connect provider",
    description:
      "Its people keep their accounts and memberships; they sign in with a password (or not at all) from then on.",
    access: "member",
    role: "owner",
    answers: [{ status: 204, description: "Removed." }],
    errors: [404, 409],
  },
] as const satisfies readonly ApiOperation[];
