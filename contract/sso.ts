import { z } from "zod";
import { timestampSchema } from "./timestamp";
import { WORKSPACE_ROLES } from "./workspaces";

/*
 * Single sign-on with OpenID Connect (docs/CONTRACT.md section 17): a workspace's owner names the
 * provider (or the operator does, with TRELLIS_OIDC_* variables); people it signs in are linked
 * by the provider's subject and join that workspace.
 */

const domainPattern = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const roleSchema = z.enum(WORKSPACE_ROLES, { error: `must be one of ${WORKSPACE_ROLES.join(", ")}` });
const joinRoleSchema = z.enum(["admin", "editor", "viewer"], {
  error: "must be one of admin, editor, viewer (an owner is made by an owner, never by a sign-in)",
});

/** PUT /api/sso: the workspace's provider. A client secret left out keeps the stored one. */
export const ssoSettingsRequestSchema = z.strictObject({
  name: z.string().trim().min(1, "must not be empty").max(60, "must be at most 60 characters"),
  issuer: z
    .url({ protocol: /^https?$/, error: "must be the provider's issuer URL (https://idp.example.com/realms/acme)" })
    .max(500, "must be at most 500 characters"),
  clientId: z.string().trim().min(1, "must not be empty").max(500, "must be at most 500 characters"),
  clientSecret: z.string().min(1, "must not be empty").max(2000, "must be at most 2000 characters").optional(),
  allowedDomains: z
    .array(z.string().trim().toLowerCase().regex(domainPattern, "must be an email domain such as example.com"))
    .max(50, "may list at most 50 domains")
    .default([])
    .describe("Email domains whose people may sign in; empty: any the provider vouches for."),
  defaultRole: joinRoleSchema.default("viewer").describe("The role of a person joining by signing in."),
  groupsClaim: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(100, "must be at most 100 characters")
    .optional()
    .describe("The ID token claim listing the person's groups (`groups`)."),
  groupRoles: z
    .record(z.string().min(1).max(200), joinRoleSchema)
    .default({})
    .describe("A group's role; the strongest of a person's groups wins over defaultRole, at every sign-in."),
  passwordSignIn: z
    .boolean()
    .default(true)
    .describe("Whether this workspace's members other than owners may still sign in with a password."),
});
export type SsoSettingsRequest = z.input<typeof ssoSettingsRequestSchema>;
export type SsoSettingsInput = z.output<typeof ssoSettingsRequestSchema>;

/** The provider as its owner sees it: never the client secret. */
export const ssoSettingsSchema = z.object({
  providerId: z.string(),
  name: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  hasClientSecret: z.boolean(),
  allowedDomains: z.array(z.string()),
  defaultRole: roleSchema,
  groupsClaim: z.string().nullable(),
  groupRoles: z.record(z.string(), roleSchema),
  passwordSignIn: z.boolean(),
  redirectUri: z.string().describe("The callback to register at the provider."),
  source: z.enum(["settings", "environment"]),
  updatedAt: timestampSchema.nullable(),
});
export type SsoSettings = z.infer<typeof ssoSettingsSchema>;

/** GET /api/sso: the workspace's provider, or none. */
export const ssoSettingsAnswerSchema = z.object({ provider: ssoSettingsSchema.nullable() });
export type SsoSettingsAnswer = z.infer<typeof ssoSettingsAnswerSchema>;

/** A provider the sign-in page offers. */
export interface SignInProvider {
  providerId: string;
  name: string;
}
