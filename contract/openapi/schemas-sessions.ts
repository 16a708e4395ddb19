/** The schemas of a member's session endpoints (docs/CONTRACT.md section 7), gathered for the catalog; each is declared with its type in contract/member-sessions.ts. */

export { memberSessionSchema, memberSessionsSchema, sessionsRevokedSchema } from "../member-sessions";
