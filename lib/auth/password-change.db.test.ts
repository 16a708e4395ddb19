import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { createAuth, type TrellisAuth } from "./auth";

/** A password change through better-auth's real handler ends the user's other sessions, whatever the client asks. */

const ORIGIN = "http://trellis.test:3000";
const PASSWORD = "correct horse battery";

let database: TestDatabase;
let auth: TrellisAuth;
let nextIp = 1;

function authRequest(path: string, options: { body?: unknown; cookie?: string } = {}): Request {
  const headers: Record<string, string> = { origin: ORIGIN, "x-forwarded-for": `203.0.113.${nextIp++}` };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.cookie) headers.cookie = options.cookie;
  return new Request(`${ORIGIN}/api/auth${path}`, {
    method: options.body === undefined ? "GET" : "POST",
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
}

const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");

async function signedIn(email: string, password: string): Promise<string> {
  const response = await auth.handler(authRequest("/sign-in/email", { body: { email, password } }));
  expect(response.status).toBe(200);
  return cookiesOf(response);
}

const sessionUser = (cookie: string) => auth.session(new Headers({ cookie }));

beforeAll(async () => {
  database = await createTestDatabase();
  auth = createAuth({ prisma: database.prisma, secret: randomBytes(32).toString("hex") });
});
afterAll(() => database.close());

describe("changing a password", () => {
  for (const asked of [undefined, false] as const) {
    it(`ends the user's other sessions when the client sends revokeOtherSessions: ${String(asked)}, and keeps the changer signed in`, async () => {
      const email = `pat-${String(asked)}@example.com`;
      await auth.createUser({ name: "Pat", email, password: PASSWORD });
      const laptop = await signedIn(email, PASSWORD);
      const phone = await signedIn(email, PASSWORD);
      expect(await sessionUser(phone)).toMatchObject({ email });

      const body: Record<string, unknown> = { currentPassword: PASSWORD, newPassword: "a new long passphrase" };
      if (asked !== undefined) body.revokeOtherSessions = asked;
      const changed = await auth.handler(authRequest("/change-password", { body, cookie: laptop }));
      expect(changed.status).toBe(200);

      // The other device's session is gone: its cookie is refused, by the session reader and by better-auth's own endpoint.
      expect(await sessionUser(phone)).toBeNull();
      const phoneAsks = await auth.handler(authRequest("/get-session", { cookie: phone }));
      expect(await phoneAsks.json()).toBeNull();
      // The changer gets a fresh session (a new cookie) and stays signed in with it.
      const renewed = cookiesOf(changed);
      expect(renewed).toMatch(/trellis\.session_token=/);
      expect(await sessionUser(renewed)).toMatchObject({ email });
      expect(await database.prisma.session.count({ where: { user: { email } } })).toBe(1);
    });
  }

  it("with a wrong current password changes nothing and ends no session", async () => {
    const email = "kim@example.com";
    await auth.createUser({ name: "Kim", email, password: PASSWORD });
    const laptop = await signedIn(email, PASSWORD);
    const phone = await signedIn(email, PASSWORD);
    const refused = await auth.handler(
      authRequest("/change-password", {
        body: { currentPassword: "not the password", newPassword: "a new long passphrase" },
        cookie: laptop,
      }),
    );
    expect(refused.status).toBe(400);
    expect(await sessionUser(phone)).toMatchObject({ email });
    expect(await sessionUser(laptop)).toMatchObject({ email });
  });
});
