import "server-only";

/**
 * The provider's OpenID discovery document (OpenID Connect Discovery 1.0), checked before a
 * provider is saved, so a wrong issuer or an unreachable provider is told in Settings and nothing
 * is stored. better-auth reads the same document again when it signs someone in.
 */

/** What must be in a document this app can sign people in with. */
export interface DiscoveredProvider {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
}

export class DiscoveryProblem extends Error {}

const TIMEOUT_MS = 5_000;

export function discoveryUrlOf(issuer: string): string {
  return `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
}

function urlField(document: Record<string, unknown>, name: string, where: string): string {
  const value = document[name];
  if (typeof value !== "string" || !URL.canParse(value))
    throw new DiscoveryProblem(
      `The discovery document at ${where} has no ${name} URL: it is not an OpenID provider's.`,
    );
  return value;
}

/**
 * Reads and checks the discovery document of `issuer`: reachable within 5 s, JSON, naming this
 * very issuer (Discovery §4.3), with authorization, token and JWKS endpoints, and the code flow.
 * @throws DiscoveryProblem saying what is wrong, in words for the owner
 */
export async function discoverProvider(issuer: string, fetcher: typeof fetch = fetch): Promise<DiscoveredProvider> {
  const where = discoveryUrlOf(issuer);
  let response: Response;
  try {
    response = await fetcher(where, {
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: { accept: "application/json" },
    });
  } catch (error) {
    const reason =
      error instanceof Error && error.name === "TimeoutError" ? "no answer within 5 s" : "it could not be reached";
    throw new DiscoveryProblem(
      `The provider's discovery document at ${where} was not read: ${reason}. Check the issuer URL.`,
    );
  }
  if (!response.ok)
    throw new DiscoveryProblem(
      `The provider's discovery document at ${where} answered ${response.status}: check the issuer URL.`,
    );
  let document: unknown;
  try {
    document = JSON.parse(await response.text());
  } catch {
    throw new DiscoveryProblem(`The discovery document at ${where} is not JSON: it is not an OpenID provider's.`);
  }
  if (!document || typeof document !== "object" || Array.isArray(document))
    throw new DiscoveryProblem(`The discovery document at ${where} is not a JSON object.`);
  const fields = document as Record<string, unknown>;
  if (fields.issuer !== issuer)
    throw new DiscoveryProblem(
      `The discovery document at ${where} names the issuer ${JSON.stringify(fields.issuer)}, not ${issuer}: give the issuer exactly as the provider names it.`,
    );
  const responseTypes = fields.response_types_supported;
  if (Array.isArray(responseTypes) && !responseTypes.includes("code"))
    throw new DiscoveryProblem(`The provider at ${issuer} does not offer the authorization code flow.`);
  return {
    issuer,
    authorizationEndpoint: urlField(fields, "authorization_endpoint", where),
    tokenEndpoint: urlField(fields, "token_endpoint", where),
    jwksUri: urlField(fields, "jwks_uri", where),
  };
}
