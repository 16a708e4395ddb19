/** The schemas of the single sign-on endpoints (docs/CONTRACT.md section 17), gathered for the catalog; each is declared with its type in contract/sso.ts. */

export { ssoSettingsAnswerSchema, ssoSettingsRequestSchema, ssoSettingsSchema } from "../sso";
