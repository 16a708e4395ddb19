import "server-only";
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { readCookie } from "@/lib/http/cookies";
import type { BackoffRule, LimitedKey } from "./attempt-limiter";

/**
 * Who a sign-in guess is counted against (docs/OPERATIONS.md, "Password guesses"):
 *
 * - the client address (the socket's, or past TRELLIS_TRUSTED_PROXIES: client-address.ts), across
 *   accounts, so one address cannot spray passwords over many accounts;
 * - the account, across addresses, so many addresses cannot share out guesses at one password;
 * - unless the browser proves it signed in to this account before: a sign-in sets a device cookie
 *   (an HMAC of a random id and the account), and a request carrying one for the account it
 *   names is counted against that device alone. Someone else's guesses, from any number of
 *   addresses, then never keep the owner out of their own account from their own browser; a
 *   stolen device cookie buys its thief the device's own few guesses and nothing more.
 *
 * The account's waits are short (at most a minute: a delay, not a lockout) since a new browser of
 * the owner shares them with the attacker; the address's and the device's grow to 15 minutes.
 */
export const SIGN_IN_RULES = {
  address: { freeFailures: 20, firstDelayS: 1, maxDelayS: 900, forgetAfterS: 3600 },
  account: { freeFailures: 5, firstDelayS: 1, maxDelayS: 60, forgetAfterS: 3600 },
  device: { freeFailures: 5, firstDelayS: 1, maxDelayS: 900, forgetAfterS: 3600 },
} as const satisfies Record<string, BackoffRule>;

export const DEVICE_COOKIE = "trellis-sign-in-device";
const DEVICE_MAX_AGE_S = 365 * 24 * 3600;
const DEVICE_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export function signInDevices(secret: string) {
  const key = Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), "trellis/auth/sign-in-device/v1", 32));
  const mac = (deviceId: string, accountKey: string) =>
    createHmac("sha256", key).update(`${deviceId}\n${accountKey}`).digest("base64url");

  /** The device id of the request's cookie when it was set by a sign-in to `accountKey`, else null. */
  function deviceOf(request: Request, accountKey: string): string | null {
    const [deviceId = "", given = ""] = (readCookie(request, DEVICE_COOKIE) ?? "").split(".");
    if (!DEVICE_ID_PATTERN.test(deviceId)) return null;
    const expected = Buffer.from(mac(deviceId, accountKey));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected) ? deviceId : null;
  }

  return {
    /** The keys a guess at `accountKey`'s password from this request is counted against. */
    keysFor(request: Request, address: string, accountKey: string | undefined): LimitedKey[] {
      const device = accountKey ? deviceOf(request, accountKey) : null;
      if (device) return [{ key: `sign-in|device|${device}`, rule: SIGN_IN_RULES.device }];
      const byAddress: LimitedKey = { key: `sign-in|address|${address}`, rule: SIGN_IN_RULES.address };
      return accountKey
        ? [byAddress, { key: `sign-in|account|${accountKey}`, rule: SIGN_IN_RULES.account }]
        : [byAddress];
    },
    /** The Set-Cookie of a successful sign-in: the browser's device id (kept), bound to the account. */
    cookieFor(request: Request, accountKey: string, secure: boolean): string {
      const [existing = ""] = (readCookie(request, DEVICE_COOKIE) ?? "").split(".");
      const deviceId = DEVICE_ID_PATTERN.test(existing) ? existing : randomBytes(16).toString("base64url");
      return [
        `${DEVICE_COOKIE}=${deviceId}.${mac(deviceId, accountKey)}`,
        "Path=/api/auth",
        `Max-Age=${DEVICE_MAX_AGE_S}`,
        "HttpOnly",
        "SameSite=Strict",
        ...(secure ? ["Secure"] : []),
      ].join("; ");
    },
  };
}

/** The answer to a guess refused unchecked: 429, how long to wait, in better-auth's error shape. */
export function tooManyAttempts(retryAfterS: number): Response {
  const body = {
    code: "TOO_MANY_ATTEMPTS",
    message: `Too many failed sign-ins: try again in ${retryAfterS} second${retryAfterS === 1 ? "" : "s"}.`,
  };
  return Response.json(body, {
    status: 429,
    headers: { "retry-after": String(retryAfterS), "x-retry-after": String(retryAfterS) },
  });
}
