export { refusalReasonForAddress, isIpAddress } from "./address-policy";
export { parseAllowList, AllowListError, type AllowList } from "./allow-list";
export {
  createOutboundGuard,
  systemLookup,
  type HostLookup,
  type OutboundGuard,
  type VettedTarget,
} from "./outbound-guard";
export {
  createGuardedFetch,
  outboundConfigFromEnvironment,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_OUTBOUND_TIMEOUT_MS,
  type GuardedFetch,
  type OutboundConfig,
  type OutboundRequest,
  type OutboundResponse,
} from "./guarded-fetch";
export { createGuardedWebFetch, type GuardedWebFetchConfig } from "./guarded-web-fetch";
export { redactHeaders, isCredentialHeader, REDACTED } from "./redact-headers";
export { decodeBody, isJsonContentType } from "./response-body";
export { createDecodedFetch, type DecodedFetchInit, type DecodedFetchResponse } from "./decoded-fetch";
