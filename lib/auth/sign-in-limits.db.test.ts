import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { serveRoute, type RouteServer } from "@/lib/mcp/__fixtures__/route-server";
import { createAuth } from "./auth";
import { parseTrustedProxies } from "./client-address";
import { stampPeerAddresses } from "./peer-address";
import { SIGN_IN_RULES } from "./sign-in-limits";
import { createUserByInvitation } from "./users";

/**
 * Sign-in guesses over real HTTP on loopback: the server stamps each request with its socket's
 * address as the app's does (instrumentation.ts), better-auth's handler answers, and the limits
 * count in the test database. A clock the test moves stands in for the waits.
 */

const OWNER = { name: "Olive Owner", email: "olive@example.com", password: "olive's long password" };
const clock = { now: Date.now() };
let database: TestDatabase;
/** No TRELLIS_TRUSTED_PROXIES: every client is its socket, 127.0.0.1 here. */
let direct: RouteServer;
/** TRELLIS_TRUSTED_PROXIES=127.0.0.1: the loopback peer is a proxy, and X-Forwarded-For names the client. */
let proxied: RouteServer;

beforeAll(async () => {
  stampPeerAddresses();
  database = await createTestDatabase();
  const secret = randomBytes(32).toString("hex");
  const serve = async (trusted: string | undefined) => {
    const auth = createAuth({
      prisma: database.prisma,
      secret,
      trustedProxies: parseTrustedProxies(trusted),
      now: () => clock.now,
    });
    return {
      auth,
      server: await serveRoute({ POST: (request) => auth.handler(request), GET: (request) => auth.handler(request) }),
    };
  };
  const first = await serve(undefined);
  direct = first.server;
  proxied = (await serve("127.0.0.1, 10.0.0.0/8")).server;
  await createUserByInvitation(OWNER, first.auth);
});

afterAll(async () => {
  await direct?.close();
  await proxied?.close();
  await database?.close();
});

interface Attempt {
  email: string;
  password: string;
  forwardedFor?: string;
  cookie?: string;
}

function signIn(server: RouteServer, attempt: Attempt): Promise<Response> {
  return fetch(`${server.origin}/api/auth/sign-in/email`, {
    method: "POST",
    headers: {
      origin: server.origin,
      "content-type": "application/json",
      ...(attempt.forwardedFor ? { "x-forwarded-for": attempt.forwardedFor } : {}),
      ...(attempt.cookie ? { cookie: attempt.cookie } : {}),
    },
    body: JSON.stringify({ email: attempt.email, password: attempt.password }),
  });
}

const statusOf = async (server: RouteServer, attempt: Attempt) => (await signIn(server, attempt)).status;
const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
const waitOut = (response: Response) => {
  clock.now += Number(response.headers.get("retry-after")) * 1000;
};

describe("the address a sign-in is counted under", () => {
  it("is the socket's without TRELLIS_TRUSTED_PROXIES: X-Forwarded-For does not buy a new budget", async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= SIGN_IN_RULES.address.freeFailures; attempt += 1) {
      // A sprayer: another account and another claimed address each time.
      statuses.push(
        await statusOf(direct, {
          email: `spray-${attempt}@example.com`,
          password: "a wrong password",
          forwardedFor: `203.0.113.${attempt + 1}`,
        }),
      );
    }
    expect(statuses.slice(0, -1).every((status) => status === 401)).toBe(true);
    const refused = await signIn(direct, {
      email: "spray-x@example.com",
      password: "a wrong password",
      forwardedFor: "198.51.100.99",
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).message).toMatch(/^Too many failed sign-ins: try again in \d+ seconds?\.$/);
    waitOut(refused);
  });

  it("with TRELLIS_TRUSTED_PROXIES is the right-most hop that is not a trusted proxy", async () => {
    const attacker = "203.0.113.50";
    for (let attempt = 0; attempt < SIGN_IN_RULES.address.freeFailures; attempt += 1) {
      expect(
        await statusOf(proxied, {
          email: `proxied-${attempt}@example.com`,
          password: "a wrong password",
          forwardedFor: attacker,
        }),
      ).toBe(401);
    }
    expect(
      await statusOf(proxied, { email: "proxied-x@example.com", password: "a wrong password", forwardedFor: attacker }),
    ).toBe(429);
    // Writing another address to the left changes nothing: the proxy appended the real one.
    expect(
      await statusOf(proxied, {
        email: "proxied-y@example.com",
        password: "a wrong password",
        forwardedFor: `192.0.2.1, ${attacker}`,
      }),
    ).toBe(429);
    // Nor does hiding behind a second trusted proxy (10.0.0.0/8).
    expect(
      await statusOf(proxied, {
        email: "proxied-z@example.com",
        password: "a wrong password",
        forwardedFor: `${attacker}, 10.1.2.3`,
      }),
    ).toBe(429);
    // Another client behind the same proxy has its own budget.
    expect(
      await statusOf(proxied, {
        email: "proxied-x@example.com",
        password: "a wrong password",
        forwardedFor: "203.0.113.51",
      }),
    ).toBe(401);
  });
});

describe("an account under attack", () => {
  it("keeps the owner able to sign in: the known browser at once, a new one after a short wait, while the attacker's address waits long", async () => {
    // The owner's browser signed in before and holds its device cookie.
    const earlier = await signIn(proxied, {
      email: OWNER.email,
      password: OWNER.password,
      forwardedFor: "198.51.100.10",
    });
    expect(earlier.status).toBe(200);
    const ownerBrowser = cookiesOf(earlier);
    expect(ownerBrowser).toContain("trellis-sign-in-device=");

    // A patient attacker: guesses, and waits out every 429 it gets, until its address waits longer than the account ever does.
    const attacker = "203.0.113.66";
    let guesses = 0;
    for (;;) {
      const response = await signIn(proxied, {
        email: OWNER.email,
        password: `guess number ${guesses}`,
        forwardedFor: attacker,
      });
      if (response.status === 401) guesses += 1;
      // Longer than the account's longest wait: the address's own.
      else if (response.status === 429 && Number(response.headers.get("retry-after")) > SIGN_IN_RULES.account.maxDelayS)
        break;
      else if (response.status === 429) waitOut(response);
      else throw new Error(`unexpected ${response.status}`);
      if (guesses > 100) throw new Error("the attacker's address is never held back");
    }
    expect(guesses).toBeGreaterThanOrEqual(SIGN_IN_RULES.address.freeFailures);

    // The owner's browser is not held back by the attacker's guesses, from any address.
    expect(
      await statusOf(proxied, {
        email: OWNER.email,
        password: OWNER.password,
        forwardedFor: "198.51.100.11",
        cookie: ownerBrowser,
      }),
    ).toBe(200);

    // A new browser of the owner shares the account's wait: short (a delay, not a lockout), then the right password passes.
    const newBrowser = await signIn(proxied, {
      email: OWNER.email,
      password: OWNER.password,
      forwardedFor: "198.51.100.12",
    });
    if (newBrowser.status === 429) {
      expect(Number(newBrowser.headers.get("retry-after"))).toBeLessThanOrEqual(SIGN_IN_RULES.account.maxDelayS);
      waitOut(newBrowser);
      expect(
        await statusOf(proxied, { email: OWNER.email, password: OWNER.password, forwardedFor: "198.51.100.12" }),
      ).toBe(200);
    } else {
      expect(newBrowser.status).toBe(200);
    }

    // The owner's success started no wait of its own: the next new browser signs in at once.
    expect(
      await statusOf(proxied, { email: OWNER.email, password: OWNER.password, forwardedFor: "198.51.100.13" }),
    ).toBe(200);

    // The attacker's address is still waiting, even with the right password: its limit is its own.
    const still = await signIn(proxied, { email: OWNER.email, password: OWNER.password, forwardedFor: attacker });
    expect(still.status).toBe(429);
  });

  it("counts guesses at another account against that account, not against the device cookie the browser holds", async () => {
    const auth = createAuth({ prisma: database.prisma, secret: randomBytes(32).toString("hex") });
    const pat = { name: "Pat", email: "pat@example.com", password: "pat's long password" };
    await createUserByInvitation(pat, auth);
    await createUserByInvitation({ name: "Vic", email: "vic@example.com", password: "vic's long password" }, auth);
    const signedIn = await signIn(proxied, { email: pat.email, password: pat.password, forwardedFor: "198.51.100.20" });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.getSetCookie().find((line) => line.startsWith("trellis-sign-in-device="))).toMatch(
      /Path=\/api\/auth; .*HttpOnly/,
    );
    const patsBrowser = cookiesOf(signedIn);

    // Pat's cookie is no device of Vic's: guesses at Vic meet Vic's account limit.
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= SIGN_IN_RULES.account.freeFailures; attempt += 1) {
      statuses.push(
        await statusOf(proxied, {
          email: "vic@example.com",
          password: `a guess ${attempt}`,
          forwardedFor: `198.51.100.${30 + attempt}`,
          cookie: patsBrowser,
        }),
      );
    }
    expect(statuses).toEqual([...Array(SIGN_IN_RULES.account.freeFailures).fill(401), 429]);
    // And Pat's own device was not charged for them.
    expect(
      await statusOf(proxied, {
        email: pat.email,
        password: pat.password,
        forwardedFor: "198.51.100.21",
        cookie: patsBrowser,
      }),
    ).toBe(200);
  });
});
