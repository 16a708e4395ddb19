import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditRequestsTo } from "@/lib/audit";
import { createAuth, type TrellisAuth } from "@/lib/auth/auth";
import { peerAddressHeader } from "@/lib/auth/peer-address";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { testMember } from "@/lib/http/test-members";
import {
  startTestIdentityProvider,
  type TestIdentityProvider,
  type TestPerson,
} from "./__fixtures__/test-identity-provider";
import { ssoEndpoints, type SsoEndpoints } from "./sso-endpoints";
import { settingsProviderId, ssoProviders } from "./sso-providers";

/**
 * Sign-in with OpenID Connect against a real provider (node-oidc-provider, started here), through
 * better-auth's real handler and a test database: the whole flow, and each bad input the issue
 * names, refused with nothing signed in.
 */

const ORIGIN = "http://127.0.0.1:3999";
const SECRET = randomBytes(32).toString("hex");
const ADA: TestPerson = {
  sub: "sub-ada",
  email: "ada@acme.example",
  name: "Ada Lovelace",
  groups: ["trellis-builders"],
};

let database: TestDatabase;
let auth: TrellisAuth;
let idp: TestIdentityProvider;
let http: SsoEndpoints;
let workspaceId: string;
let ownerId: string;
let providerId: string;

/** Cookies by name, as a browser keeps them for one site. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  has(prefix: string): boolean {
    return [...this.cookies.keys()].some((name) => name.includes(prefix));
  }
}

let browsers = 0;
/** A browser, on an address of its own (better-auth limits sign-in starts per address). */
class CookieJarAt extends CookieJar {
  readonly address = `198.51.100.${++browsers}`;
}

const trellisRequest = (path: string, jar: CookieJar, init: { method?: string; body?: unknown } = {}) =>
  new Request(`${ORIGIN}${path}`, {
    method: init.method ?? "GET",
    headers: {
      origin: ORIGIN,
      cookie: jar.header(),
      [peerAddressHeader()]: jar instanceof CookieJarAt ? jar.address : "198.51.100.250",
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });

/** Starts a sign-in with the provider: the provider's authorization URL, and the browser's cookies. */
async function start(jar: CookieJar): Promise<URL> {
  const response = await auth.handler(
    trellisRequest("/api/auth/sign-in/social", jar, {
      method: "POST",
      body: { provider: providerId, callbackURL: "/workflows", errorCallbackURL: "/sign-in" },
    }),
  );
  expect(response.status, await response.clone().text()).toBe(200);
  jar.take(response);
  return new URL(((await response.json()) as { url: string }).url);
}

/** Follows the provider's redirects (signing `person` in) until it sends the browser back to Trellis: that callback URL. */
async function throughProvider(authorization: URL, person: TestPerson): Promise<URL> {
  idp.signInAs(person);
  const jar = new CookieJar();
  let next = authorization;
  for (let hop = 0; hop < 10; hop++) {
    if (next.origin === ORIGIN) return next;
    const response = await fetch(next, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.take(response);
    const location = response.headers.get("location");
    if (!location) throw new Error(`the provider answered ${response.status} at ${next}: ${await response.text()}`);
    next = new URL(location, next);
  }
  throw new Error("too many redirects at the provider");
}

/** Trellis's answer to the provider's redirect back: where it sends the browser, and the cookies it set. */
async function callback(url: URL, jar: CookieJar) {
  const response = await auth.handler(trellisRequest(`${url.pathname}${url.search}`, jar));
  jar.take(response);
  return {
    status: response.status,
    location: response.headers.get("location") ?? "",
    signedIn: jar.has("session_token"),
  };
}

async function signIn(person: TestPerson) {
  const jar = new CookieJarAt();
  const back = await throughProvider(await start(jar), person);
  return { ...(await callback(back, jar)), jar, back };
}

async function configure(body: Record<string, unknown>) {
  const request = new Request(`${ORIGIN}/api/sso`, {
    method: "PUT",
    headers: { "content-type": "application/json", host: "127.0.0.1:3999", [peerAddressHeader()]: "203.0.113.5" },
    body: JSON.stringify(body),
  });
  return http.put(request, {}, testMember(workspaceId, "owner", { userId: ownerId, name: "Owner" }));
}

const settings = () => ({
  name: "Acme ID",
  issuer: idp.issuer,
  clientId: idp.clientId,
  clientSecret: idp.clientSecret,
  allowedDomains: ["acme.example"],
  defaultRole: "viewer",
  groupsClaim: "groups",
  groupRoles: { "trellis-builders": "editor" },
});

const userBySubject = (sub: string) =>
  database.prisma.account.findFirst({ where: { providerId, accountId: sub }, select: { userId: true } });

beforeAll(async () => {
  database = await createTestDatabase();
  const providers = () => ssoProviders(database.prisma, () => database.secretKey, {});
  auth = createAuth({
    prisma: database.prisma,
    secret: SECRET,
    publicUrl: ORIGIN,
    sso: { providers: () => providers().all() },
  });
  ownerId = (await auth.createUser({ name: "Owner", email: "owner@acme.example", password: "the owner's password" }))
    .userId;
  ({ workspaceId } = await database.prisma.workspaceMember.findFirstOrThrow({ where: { userId: ownerId } }));
  providerId = settingsProviderId(workspaceId);
  idp = await startTestIdentityProvider([`${ORIGIN}/api/auth/callback/${providerId}`]);
  http = ssoEndpoints(
    providers,
    auditRequestsTo(() => database.prisma),
  );
}, 60_000);
afterAll(async () => {
  await idp?.close();
  await database?.close();
});

describe("configuring a provider", () => {
  it("refuses an unreachable or malformed discovery document, naming the issuer, and stores nothing", async () => {
    const unreachable = await configure({ ...settings(), issuer: "http://127.0.0.1:9/realms/none" });
    expect(unreachable.status).toBe(400);
    const refusal = ((await unreachable.json()) as { error: { message: string; details: Array<{ path: string }> } })
      .error;
    expect(refusal.details[0]!.path).toBe("issuer");
    expect(refusal.message).toContain("could not be reached");

    const junk: Server = createServer((_request, response) => response.end("<html>not a provider</html>"));
    await new Promise<void>((resolve) => junk.listen(0, "127.0.0.1", resolve));
    const junkIssuer = `http://127.0.0.1:${(junk.address() as AddressInfo).port}`;
    const malformed = await configure({ ...settings(), issuer: junkIssuer });
    junk.close();
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { message: string } }).error.message).toContain("is not JSON");

    const otherIssuer = await configure({ ...settings(), issuer: `${idp.issuer}/` });
    expect(otherIssuer.status).toBe(400);
    expect(await database.prisma.ssoProvider.count()).toBe(0);
  });

  it("stores the provider with its secret sealed, answers it without the secret, and records it without the secret", async () => {
    const saved = await configure(settings());
    expect(saved.status, await saved.clone().text()).toBe(200);
    const text = await saved.text();
    expect(text).not.toContain(idp.clientSecret);
    expect(JSON.parse(text)).toMatchObject({
      provider: { providerId, hasClientSecret: true, redirectUri: `${ORIGIN}/api/auth/callback/${providerId}` },
    });
    const row = await database.prisma.ssoProvider.findUniqueOrThrow({ where: { workspaceId } });
    expect(Buffer.from(row.secretCiphertext!).toString("utf8")).not.toContain(idp.clientSecret);
    const entry = await database.prisma.auditEntry.findFirstOrThrow({
      where: { workspaceId, action: "sso.configure" },
    });
    expect(JSON.stringify(entry)).not.toContain(idp.clientSecret);
  });
});

describe("signing in with the provider", () => {
  it("signs a newcomer in, links them by subject and makes them a member with their groups' role", async () => {
    const result = await signIn(ADA);
    expect(result.location).toBe("/workflows");
    expect(result.signedIn).toBe(true);
    const linked = await userBySubject(ADA.sub);
    expect(linked).not.toBeNull();
    const member = await database.prisma.workspaceMember.findUniqueOrThrow({
      where: { workspaceId_userId: { workspaceId, userId: linked!.userId } },
    });
    expect(member.role).toBe("editor");
    const session = await auth.session(new Headers({ cookie: result.jar.header() }));
    expect(session).toMatchObject({ userId: linked!.userId, email: ADA.email });
    const actions = (
      await database.prisma.auditEntry.findMany({
        where: { workspaceId, actorUserId: linked!.userId },
        orderBy: { at: "asc" },
      })
    ).map((entry) => [entry.action, entry.summary]);
    expect(actions).toEqual([
      ["member.join", { after: { role: "editor", via: "Acme ID" } }],
      ["signIn.succeeded", { method: "oidc", provider: "Acme ID" }],
    ]);
  });

  it("keeps a subject's account when the provider changes its email (linked by subject)", async () => {
    const before = await userBySubject(ADA.sub);
    const renamed = await signIn({ ...ADA, email: "ada.lovelace@acme.example" });
    expect(renamed.signedIn).toBe(true);
    expect((await auth.session(new Headers({ cookie: renamed.jar.header() })))?.userId).toBe(before!.userId);
  });

  it.each([
    ["a wrong audience", (claims: Record<string, unknown>) => ({ ...claims, aud: "someone-else" })],
    ["a wrong issuer", (claims: Record<string, unknown>) => ({ ...claims, iss: "http://127.0.0.1:1/evil" })],
    ["a wrong nonce", (claims: Record<string, unknown>) => ({ ...claims, nonce: "not-the-one-we-sent" })],
    [
      "an expired token",
      (claims: Record<string, unknown>) => ({
        ...claims,
        iat: Math.floor(Date.now() / 1000) - 7200,
        exp: Math.floor(Date.now() / 1000) - 3600,
      }),
    ],
  ])("refuses an ID token with %s and signs nobody in", async (_what, change) => {
    const sessions = await database.prisma.session.count();
    idp.tamperNextIdToken(change);
    const result = await signIn({ ...ADA, sub: `sub-${randomBytes(4).toString("hex")}` });
    expect(result.signedIn).toBe(false);
    // The ID token fails verification against the provider's keys, issuer, client id and nonce.
    expect(result.location).toBe("/sign-in?error=unable_to_get_user_info");
    expect(await database.prisma.session.count()).toBe(sessions);
  });

  it("refuses a callback with a wrong state", async () => {
    const jar = new CookieJarAt();
    const back = await throughProvider(await start(jar), ADA);
    back.searchParams.set("state", "forged-state");
    const result = await callback(back, jar);
    expect(result.signedIn).toBe(false);
    expect(result.location).toContain("error=state_mismatch");
  });

  it("refuses a replayed code, from the same browser or another, and makes no session", async () => {
    const first = await signIn(ADA);
    expect(first.signedIn).toBe(true);
    const sessions = await database.prisma.session.count();
    const again = await callback(first.back, first.jar);
    expect(again.location).toContain("error=state_mismatch");
    const elsewhere = await callback(first.back, new CookieJarAt());
    expect(elsewhere).toMatchObject({ signedIn: false, location: expect.stringContaining("error=state_mismatch") });
    expect(await database.prisma.session.count()).toBe(sessions);
  });

  it("refuses an email outside the allowed domains, creating no account", async () => {
    const outsider = { sub: "sub-eve", email: "eve@elsewhere.example", name: "Eve" };
    const result = await signIn(outsider);
    expect(result.signedIn).toBe(false);
    expect(result.location).toContain("error=EMAIL_DOMAIN_NOT_ALLOWED");
    expect(await database.prisma.user.findUnique({ where: { email: outsider.email } })).toBeNull();
  });
});

describe("what the provider's settings decide", () => {
  it("gives a member the role of their groups at each sign-in, recorded as a role change", async () => {
    const saved = await configure({
      ...settings(),
      groupRoles: { "trellis-builders": "editor", "trellis-admins": "admin" },
    });
    expect(saved.status).toBe(200);
    const promoted = await signIn({ ...ADA, groups: ["trellis-builders", "trellis-admins"] });
    expect(promoted.signedIn).toBe(true);
    const { userId } = (await userBySubject(ADA.sub))!;
    const member = await database.prisma.workspaceMember.findUniqueOrThrow({
      where: { workspaceId_userId: { workspaceId, userId } },
    });
    expect(member.role).toBe("admin");
    const change = await database.prisma.auditEntry.findFirstOrThrow({
      where: { workspaceId, action: "member.role", objectId: userId },
    });
    expect(change.summary).toMatchObject({ before: { role: "editor" }, after: { role: "admin" } });
  });

  it("refuses a member's password when password sign-in is off, after the password is checked; owners keep theirs", async () => {
    const password = "a member's own password";
    const bo = await auth.createUser({ name: "Bo", email: "bo@acme.example", password });
    await database.prisma.workspaceMember.create({ data: { workspaceId, userId: bo.userId, role: "editor" } });
    expect((await configure({ ...settings(), passwordSignIn: false })).status).toBe(200);
    const sessions = await database.prisma.session.count();
    const passwordSignIn = (email: string, secret: string) =>
      auth.handler(
        trellisRequest("/api/auth/sign-in/email", new CookieJarAt(), {
          method: "POST",
          body: { email, password: secret },
        }),
      );
    const refused = await passwordSignIn("bo@acme.example", password);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      code: "PASSWORD_SIGN_IN_OFF",
      message: "Sign in with Acme ID: password sign-in is off for its workspace.",
    });
    expect(refused.headers.getSetCookie().filter((line) => line.includes("session_token"))).toEqual([]);
    expect(await database.prisma.session.count()).toBe(sessions);
    // A wrong password is told apart from nothing: the same 401 as anywhere.
    expect((await passwordSignIn("bo@acme.example", "not the password at all")).status).toBe(401);
    expect((await passwordSignIn("owner@acme.example", "the owner's password")).status).toBe(200);
  });
});
