import "server-only";
/** Users and sessions (better-auth). Server-only: routes, pages and the access check import from here. */
export { createAuth, getAuth, SIGN_UP_CLOSED_MESSAGE } from "./auth";
export type { AuthOptions, NewUser, TrellisAuth } from "./auth";
export { authSecret } from "./auth-secret";
export { addressedUrl } from "./auth-request";
export { createAttemptLimiter } from "./attempt-limiter";
export type { AttemptDecision, AttemptLimiter, AttemptTicket, BackoffRule, LimitedKey } from "./attempt-limiter";
export { addressLimitKey, clientAddressOf, parseTrustedProxies, trustedProxiesFromEnvironment } from "./client-address";
export type { TrustedProxies } from "./client-address";
export { peerAddressOf, stampPeerAddresses } from "./peer-address";
export { callerOf, currentSession, ownerExists, sessionOf } from "./authenticate";
export type { Caller } from "./authenticate";
export { requestedWorkspace, workspaceAccess } from "./workspace-access";
export type { Member, WorkspaceAccess } from "./workspace-access";
export {
  callerOfApiKey,
  createApiKey,
  hashApiKey,
  INVALID_API_KEY_MESSAGE,
  listApiKeys,
  revokeApiKey,
} from "./api-keys";
export type { KeyOwner } from "./api-keys";
export { appAuthEndpoints } from "./app-auth-endpoints";
export { createUserByInvitation } from "./users";
export { ensureOwnerFromEnvironment } from "./owner-from-environment";
export type { OwnerFromEnvironment } from "./owner-from-environment";
