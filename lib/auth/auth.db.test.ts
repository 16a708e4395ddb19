import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { createAuth, type TrellisAuth } from "./auth";
import { sessionOf } from "./authenticate";
import { peerAddressHeader } from "./peer-address";
import { createUserByInvitation } from "./users";

/** better-auth's real handler, called with real requests, over a test database. */

const ORIGIN = "http://trellis.test:3000";
const OWNER = { name: "Ada Owner", email: "ada@example.com", password: "correct horse battery" };

let database: TestDatabase;
let auth: TrellisAuth;
let nextIp = 1;
/** A fresh client address per call site, so the per-IP limits of one test do not touch another. */
const freshIp = () => `198.51.100.${nextIp++}`;

function authRequest(
  path: string,
  options: { body?: unknown; cookie?: string; ip?: string; origin?: string; method?: string } = {},
): Request {
  const origin = options.origin ?? ORIGIN;
  // The socket's address, as the server stamps it (peer-address.ts): these requests reach the handler without a socket.
  const headers: Record<string, string> = { origin, [peerAddressHeader()]: options.ip ?? freshIp() };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.cookie) headers.cookie = options.cookie;
  return new Request(`${origin}/api/auth${path}`, {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
}

/** The cookie pairs (`name=value`) a response sets, for the next request's Cookie header. */
function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

function sessionCookieLine(response: Response): string | undefined {
  return response.headers.getSetCookie().find((line) => /^(__Secure-)?trellis\.session_token=/.test(line));
}

const signIn = (email: string, password: string, ip?: string) =>
  auth.handler(authRequest("/sign-in/email", { body: { email, password }, ...(ip ? { ip } : {}) }));

beforeAll(async () => {
  database = await createTestDatabase();
  auth = createAuth({ prisma: database.prisma, secret: randomBytes(32).toString("hex") });
});

afterAll(async () => {
  await database.close();
});

describe("first start: the owner", () => {
  it("refuses a password outside the rules with a message naming the rule, and creates nobody", async () => {
    const short = await auth.handler(authRequest("/sign-up/email", { body: { ...OWNER, password: "short pw" } }));
    expect(short.status).toBe(400);
    expect((await short.json()).message).toBe("The password is too short: use at least 10 characters.");

    const long = await auth.handler(authRequest("/sign-up/email", { body: { ...OWNER, password: "x".repeat(129) } }));
    expect(long.status).toBe(400);
    expect((await long.json()).message).toBe("The password is too long: use at most 128 characters.");

    expect(await database.prisma.user.count()).toBe(0);
    expect(await auth.ownerExists()).toBe(false);
  });

  it("is created by public sign-up, which signs the owner in and makes the owner's first workspace, adopting one left without members", async () => {
    // A workspace the workspaces migration made for data stored before accounts existed.
    const orphan = await database.createWorkspace("Main workspace");
    const response = await auth.handler(authRequest("/sign-up/email", { body: OWNER }));
    expect(response.status).toBe(200);
    expect((await response.json()).user).toMatchObject({ email: OWNER.email, name: OWNER.name });
    expect(sessionCookieLine(response)).toMatch(/HttpOnly/i);
    expect(
      await sessionOf(new Request(`${ORIGIN}/api/workflows`, { headers: { cookie: cookiesOf(response) } }), auth),
    ).toMatchObject({ email: OWNER.email });
    expect(await auth.ownerExists()).toBe(true);
    const owner = await database.prisma.user.findFirstOrThrow({ where: { email: OWNER.email } });
    expect(await database.repositories.workspaces.listForUser(owner.id)).toEqual([
      expect.objectContaining({ id: orphan, name: "Main workspace", role: "owner" }),
    ]);
  });

  it("closes public sign-up once the owner exists", async () => {
    const response = await auth.handler(
      authRequest("/sign-up/email", {
        body: { name: "Mallory", email: "mallory@example.com", password: "another long password" },
      }),
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      code: "SIGN_UP_CLOSED",
      message: expect.stringContaining("Sign-up is closed"),
    });
    expect(await database.prisma.user.count()).toBe(1);
  });
});

describe("sign-in and sessions", () => {
  it("sets an HTTP-only session cookie that sessionOf resolves", async () => {
    const response = await signIn(OWNER.email, OWNER.password);
    expect(response.status).toBe(200);
    const line = sessionCookieLine(response)!;
    expect(line).toMatch(/^trellis\.session_token=/);
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).not.toMatch(/Secure/i); // plain http: a Secure cookie would be dropped by the browser

    const user = await sessionOf(
      new Request(`${ORIGIN}/api/workflows`, { headers: { cookie: cookiesOf(response) } }),
      auth,
    );
    expect(user).toEqual({ userId: expect.any(String), email: OWNER.email, name: OWNER.name });
    expect(await sessionOf(new Request(`${ORIGIN}/api/workflows`), auth)).toBeNull();
    expect(
      await sessionOf(
        new Request(`${ORIGIN}/api/workflows`, { headers: { cookie: "trellis.session_token=forged.value" } }),
        auth,
      ),
    ).toBeNull();
  });

  it("sets a Secure cookie when the request came over https", async () => {
    const origin = "https://trellis.test";
    const response = await auth.handler(
      authRequest("/sign-in/email", { origin, body: { email: OWNER.email, password: OWNER.password } }),
    );
    expect(response.status).toBe(200);
    const line = sessionCookieLine(response)!;
    expect(line).toMatch(/^__Secure-trellis\.session_token=/);
    expect(line).toMatch(/; Secure/i);
    expect(
      await sessionOf(new Request(`${origin}/api/workflows`, { headers: { cookie: cookiesOf(response) } }), auth),
    ).toMatchObject({ email: OWNER.email });
  });

  it("trusts the origin the browser addressed (the Host header), not Next's own name for itself", async () => {
    // Next.js builds request.url from its listening name (localhost) even when the page is at 127.0.0.1.
    const addressed = (path: string, origin: string, body: unknown, cookie?: string) =>
      new Request(`http://localhost:3000/api/auth${path}`, {
        method: "POST",
        headers: {
          host: "127.0.0.1:3000",
          origin,
          "content-type": "application/json",
          [peerAddressHeader()]: freshIp(),
          ...(cookie ? { cookie } : {}),
        },
        body: JSON.stringify(body),
      });
    const signedIn = await auth.handler(
      addressed("/sign-in/email", "http://127.0.0.1:3000", { email: OWNER.email, password: OWNER.password }),
    );
    expect(signedIn.status).toBe(200);
    // Changes from another site are refused by better-auth too (and before it by the request
    // guard: app-auth-endpoints.test.ts).
    expect((await auth.handler(addressed("/sign-out", "http://elsewhere.test", {}, cookiesOf(signedIn)))).status).toBe(
      403,
    );
    expect(
      (
        await auth.handler(
          addressed("/sign-in/email", "http://elsewhere.test", { email: OWNER.email, password: OWNER.password }),
        )
      ).status,
    ).toBe(403);
  });

  it("answers a wrong password and an unknown email alike: 401, one message", async () => {
    const wrongPassword = await signIn(OWNER.email, "not the password at all");
    const unknownEmail = await signIn("nobody@example.com", OWNER.password);
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    const [first, second] = [await wrongPassword.json(), await unknownEmail.json()];
    expect(first).toEqual(second);
    expect(first.message).toBe("Invalid email or password");
    expect(sessionCookieLine(wrongPassword)).toBeUndefined();
  });

  it("limits failed sign-ins: the 6th rapid wrong attempt for an account is refused with 429, whatever the IP", async () => {
    const user = await createUserByInvitation(
      { name: "Target", email: "target@example.com", password: "target's long password" },
      auth,
    );
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1)
      statuses.push((await signIn(user.email, `wrong password ${attempt}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const refused = await signIn(user.email, "target's long password");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(sessionCookieLine(refused)).toBeUndefined();
    // Another account is not held back by this one's failures.
    expect((await signIn(OWNER.email, OWNER.password)).status).toBe(200);
  });

  it("limits sign-in attempts per client IP across accounts", async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 21; attempt += 1)
      statuses.push((await signIn(`guess-${attempt}@example.com`, "a wrong password", ip)).status);
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it("does not count successful sign-ins against the limit", async () => {
    const invited = await createUserByInvitation(
      { name: "Sam", email: "sam@example.com", password: "sam's long password" },
      auth,
    );
    const ip = freshIp();
    for (let attempt = 0; attempt < 8; attempt += 1)
      expect((await signIn(invited.email, "sam's long password", ip)).status).toBe(200);
  });

  it("ends the session on sign-out", async () => {
    const response = await signIn(OWNER.email, OWNER.password);
    const cookie = cookiesOf(response);
    const request = () => new Request(`${ORIGIN}/api/workflows`, { headers: { cookie } });
    expect(await sessionOf(request(), auth)).toMatchObject({ email: OWNER.email });

    const signOut = await auth.handler(authRequest("/sign-out", { body: {}, cookie }));
    expect(signOut.status).toBe(200);
    expect(await sessionOf(request(), auth)).toBeNull();
    const session = await auth.handler(authRequest("/get-session", { cookie }));
    expect(await session.json()).toBeNull();
  });
});

describe("createUserByInvitation", () => {
  it("creates a user past the closed sign-up, without signing anyone in", async () => {
    const sessionsBefore = await database.prisma.session.count();
    const user = await createUserByInvitation(
      { name: "Grace", email: "Grace@Example.com", password: "grace's long password" },
      auth,
    );
    expect(user).toEqual({ userId: expect.any(String), email: "grace@example.com", name: "Grace" });
    expect(await database.prisma.session.count()).toBe(sessionsBefore);
    expect((await signIn("grace@example.com", "grace's long password")).status).toBe(200);
    // Joins workspaces by invitation only: no workspace of her own, and not the owner's.
    expect(await database.repositories.workspaces.listForUser(user.userId)).toEqual([]);
  });

  it("refuses a taken email and a password outside the rules", async () => {
    await expect(
      createUserByInvitation({ name: "Again", email: "grace@example.com", password: "grace's long password" }, auth),
    ).rejects.toMatchObject({
      code: "invalid_input",
    });
    await expect(
      createUserByInvitation({ name: "Short", email: "short@example.com", password: "short" }, auth),
    ).rejects.toMatchObject({
      code: "invalid_input",
      message: "The password is too short: use at least 10 characters.",
    });
  });
});
