import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, decodeJwt, type JWK } from "jose";
import Provider from "oidc-provider";

/**
 * A real OpenID provider for tests: node-oidc-provider (a certified implementation) behind a small
 * front server on 127.0.0.1 that
 * - signs in whichever person the test names (`signInAs`) at the interaction step, with consent;
 * - can turn into a faulty provider for one token response (`tamperNextIdToken`): the ID token is
 *   signed again with the provider's own key, its claims changed (a wrong audience, issuer or
 *   nonce, an expired token), as a broken or hostile provider would send it.
 */

export interface TestPerson {
  sub: string;
  email: string;
  name: string;
  groups?: string[];
}

export interface TestIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the next interaction signs in. */
  signInAs(person: TestPerson): void;
  /** Changes the claims of the next ID token the token endpoint answers. */
  tamperNextIdToken(change: (claims: Record<string, unknown>) => Record<string, unknown>): void;
  /** Token requests the provider answered with an error (a replayed code is one). */
  refusedTokenRequests(): number;
  close(): Promise<void>;
}

export async function startTestIdentityProvider(redirectUris: string[]): Promise<TestIdentityProvider> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingKey: JWK = { ...(await exportJWK(privateKey)), kid: "test-key", alg: "RS256", use: "sig" };
  const clientId = "trellis-test";
  const clientSecret = "test-client-secret-0123456789abcdef";
  let person: TestPerson | null = null;
  let tamper: ((claims: Record<string, unknown>) => Record<string, unknown>) | null = null;
  let refused = 0;

  // The front server is the issuer: it answers the interactions and the token endpoint itself, the rest is the provider's.
  const front = createServer();
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: ["test-cookie-key-0123456789"] },
    pkce: { required: () => true },
    // Groups ride with the profile, as Keycloak's and Authentik's default mappers send them.
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "groups"] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    findAccount: (_ctx, sub) => {
      const found = person && person.sub === sub ? person : null;
      if (!found) return undefined;
      return {
        accountId: sub,
        claims: () => ({
          sub,
          email: found.email,
          email_verified: true,
          name: found.name,
          ...(found.groups ? { groups: found.groups } : {}),
        }),
      };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  });
  provider.proxy = false;
  const inner = provider.callback();

  async function interaction(request: IncomingMessage, response: ServerResponse) {
    const details = await provider.interactionDetails(request, response);
    if (!person) throw new Error("The test named nobody to sign in (signInAs)");
    const grant = new provider.Grant({ accountId: person.sub, clientId });
    grant.addOIDCScope(String(details.params.scope ?? "openid"));
    const grantId = await grant.save();
    await provider.interactionFinished(
      request,
      response,
      { login: { accountId: person.sub }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  /**
   * The token endpoint, as the provider answers it; when the test asked, its ID token is signed
   * again with changed claims before the answer leaves (the provider's own end() is held back).
   */
  function token(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const end = response.end.bind(response) as (body?: string | Buffer) => ServerResponse;
    return new Promise<void>((resolve, reject) => {
      (response as { end: unknown }).end = (body?: string | Buffer) => {
        void (async () => {
          if (response.statusCode >= 400) refused += 1;
          let text = body === undefined ? "" : body.toString();
          if (response.statusCode === 200 && tamper) {
            const answer = JSON.parse(text) as { id_token?: string };
            if (answer.id_token) {
              const claims = tamper(decodeJwt(answer.id_token) as Record<string, unknown>);
              tamper = null;
              answer.id_token = await new SignJWT(claims)
                .setProtectedHeader({ alg: "RS256", kid: signingKey.kid! })
                .sign(privateKey);
              text = JSON.stringify(answer);
            }
          }
          response.setHeader("content-length", Buffer.byteLength(text));
          end(text);
          resolve();
        })().catch(reject);
        return response;
      };
      void Promise.resolve(inner(request, response)).catch(reject);
    });
  }

  front.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? "/", issuer).pathname;
    const handled = path.startsWith("/interaction/")
      ? interaction(request, response)
      : path === "/token" && request.method === "POST"
        ? token(request, response)
        : Promise.resolve(inner(request, response));
    void handled.catch((error: unknown) => {
      response.writeHead(500, { "content-type": "text/plain" });
      response.end(error instanceof Error ? error.message : String(error));
    });
  });

  return {
    issuer,
    clientId,
    clientSecret,
    signInAs: (next) => {
      person = next;
    },
    tamperNextIdToken: (change) => {
      tamper = change;
    },
    refusedTokenRequests: () => refused,
    close: () => new Promise<void>((resolve) => (front as Server).close(() => resolve())),
  };
}
