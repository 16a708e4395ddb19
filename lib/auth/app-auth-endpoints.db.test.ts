import { describe, expect, it } from "vitest";
import { appAuthEndpoints } from "./app-auth-endpoints";

/** The auth route is an endpoint: the request guard runs before better-auth reads anything. */
describe("appAuthEndpoints.handle", () => {
  const params = { all: ["sign-in", "email"] };
  const signIn = (
    headers: Record<string, string>,
    body = JSON.stringify({ email: "a@example.com", password: "whatever it is" }),
  ) =>
    appAuthEndpoints.handle(
      new Request("http://localhost:3000/api/auth/sign-in/email", {
        method: "POST",
        headers: { host: "localhost:3000", ...headers },
        body,
      }),
      params,
    );

  it("answers better-auth's paths", async () => {
    const response = await appAuthEndpoints.handle(
      new Request("http://localhost:3000/api/auth/get-session", { headers: { host: "localhost:3000" } }),
      {
        all: ["get-session"],
      },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toBeNull();
  });

  it("refuses a sign-in sent from another site, as text/plain, or to a foreign Host", async () => {
    const crossSite = await signIn({ origin: "https://evil.example", "content-type": "application/json" });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toMatchObject({ error: { code: "cross_site_request" } });

    const plain = await signIn({ origin: "http://localhost:3000", "content-type": "text/plain" });
    expect(plain.status).toBe(415);

    const rebound = await signIn({ host: "evil.example:3000", "content-type": "application/json" });
    expect(rebound.status).toBe(421);
  });
});
