import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { createAuth, type TrellisAuth } from "./auth";
import { ensureOwnerFromEnvironment } from "./owner-from-environment";

const PASSWORD = "admin password from env";
const ENV = { TRELLIS_ADMIN_EMAIL: "admin@example.com", TRELLIS_ADMIN_PASSWORD: PASSWORD };

let database: TestDatabase;
let auth: TrellisAuth;
let logged: string[];
const log = (message: string) => logged.push(message);

beforeEach(async () => {
  database = await createTestDatabase();
  auth = createAuth({ prisma: database.prisma, secret: randomBytes(32).toString("hex") });
  logged = [];
});

afterEach(async () => {
  await database.close();
});

const signIn = (email: string, password: string) =>
  auth.handler(
    new Request("http://trellis.test/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://trellis.test", "x-forwarded-for": "192.0.2.10" },
      body: JSON.stringify({ email, password }),
    }),
  );

describe("ensureOwnerFromEnvironment", () => {
  it("creates the owner once from TRELLIS_ADMIN_EMAIL and TRELLIS_ADMIN_PASSWORD; a second call does nothing", async () => {
    expect(await ensureOwnerFromEnvironment({ env: ENV, auth, log })).toBe("created");
    expect(await ensureOwnerFromEnvironment({ env: ENV, auth, log })).toBe("exists");

    expect(await database.prisma.user.findMany({ select: { email: true } })).toEqual([{ email: "admin@example.com" }]);
    expect(await database.prisma.session.count()).toBe(0); // no auto-login
    expect(logged).toEqual(["created the owner account admin@example.com"]);
    expect(logged.join("\n")).not.toContain(PASSWORD);
    expect((await signIn("admin@example.com", PASSWORD)).status).toBe(200);
    const owner = await database.prisma.user.findFirstOrThrow();
    expect(await database.repositories.workspaces.listForUser(owner.id)).toEqual([
      expect.objectContaining({ name: "Main workspace", role: "owner" }),
    ]);
  });

  it("does nothing when a user exists already, or when only one of the two is set", async () => {
    expect(await ensureOwnerFromEnvironment({ env: {}, auth, log })).toBe("not_configured");
    expect(await ensureOwnerFromEnvironment({ env: { TRELLIS_ADMIN_PASSWORD: PASSWORD }, auth, log })).toBe(
      "not_configured",
    );
    expect(logged).toEqual([
      "TRELLIS_ADMIN_EMAIL and TRELLIS_ADMIN_PASSWORD work together: set both to create the owner account at start",
    ]);
    expect(await database.prisma.user.count()).toBe(0);

    await auth.createUser({ name: "First", email: "first@example.com", password: "first's long password" });
    expect(await ensureOwnerFromEnvironment({ env: ENV, auth, log })).toBe("exists");
    expect(await database.prisma.user.count()).toBe(1);
  });

  it("refuses a password outside the rules without showing it", async () => {
    const weak = "weak-pw";
    const failure = ensureOwnerFromEnvironment({ env: { ...ENV, TRELLIS_ADMIN_PASSWORD: weak }, auth, log });
    await expect(failure).rejects.toMatchObject({
      code: "invalid_configuration",
      message: expect.stringContaining("at least 10 characters"),
    });
    await expect(failure).rejects.not.toMatchObject({ message: expect.stringContaining(weak) });
    expect(await database.prisma.user.count()).toBe(0);
    expect(logged).toEqual([]);
  });
});

describe("the first sign-up", () => {
  it("makes one owner even when two visitors send the form at once", async () => {
    const signUp = (email: string) =>
      auth.handler(
        new Request("http://trellis.test/api/auth/sign-up/email", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            origin: "http://trellis.test",
            "x-forwarded-for": "192.0.2.20",
          },
          body: JSON.stringify({ name: email, email, password: "a long enough password" }),
        }),
      );
    const statuses = (await Promise.all([signUp("one@example.com"), signUp("two@example.com")]))
      .map((response) => response.status)
      .sort();
    expect(statuses).toEqual([200, 403]);
    expect(await database.prisma.user.count()).toBe(1);
  });
});
