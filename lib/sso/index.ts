import "server-only";
/** Single sign-on with OpenID Connect (docs/CONTRACT.md section 17): the providers, their settings' endpoints; the sign-in itself is lib/auth's. */
export { discoverProvider, DiscoveryProblem, discoveryUrlOf } from "./oidc-discovery";
export type { DiscoveredProvider } from "./oidc-discovery";
export { ENVIRONMENT_PROVIDER_ID, environmentSettings, settingsProviderId, ssoProviders } from "./sso-providers";
export type { SsoProviderConfig, SsoProviders } from "./sso-providers";
export { ssoEndpoints } from "./sso-endpoints";
export type { SsoEndpoints } from "./sso-endpoints";
export { appSsoEndpoints } from "./app-sso-endpoints";
export { signInProviders } from "./sign-in-providers";
