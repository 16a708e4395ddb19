import "server-only";
import { readCookie } from "@/lib/http/cookies";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { hashPassword, verifyPassword } from "better-auth/crypto";
import { addressedUrl } from "@/lib/auth";

/**
 * Who a chat visitor is and whether they gave the chat's password, both in HTTP-only cookies
 * scoped to the chat API (`/api/chat`), SameSite=Lax so another site's page cannot send them.
 *
 * - The visitor cookie is a random id: it is what makes a conversation the visitor's own. No
 *   account, nothing signed: guessing one is as hard as guessing 256 random bits.
 * - The access cookie says this visitor gave the password of this chat: an HMAC over the chat,
 *   the visitor, the password's hash and an expiry, so a new password (or another browser) needs
 *   the password again, and nothing about the password can be read from it.
 */

export const VISITOR_COOKIE = "trellis-chat-visitor";
export const ACCESS_COOKIE = "trellis-chat-access";
const VISITOR_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const VISITOR_MAX_AGE_S = 365 * 24 * 3600;
const ACCESS_MAX_AGE_S = 30 * 24 * 3600;

/** Hashes a chat's password with better-auth's scrypt hasher (the one account passwords use). */
export const hashChatPassword = (password: string): Promise<string> => hashPassword(password);
export const verifyChatPassword = (hash: string, password: string): Promise<boolean> =>
  verifyPassword({ hash, password });

function cookie(request: Request, name: string, value: string, path: string, maxAgeS: number): string {
  return [
    `${name}=${value}`,
    `Path=${path}`,
    `Max-Age=${maxAgeS}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(addressedUrl(request).protocol === "https:" ? ["Secure"] : []),
  ].join("; ");
}

/** The request's visitor: the cookie's id, or a new one that `cookies` sets on the answer. */
export interface Visitor {
  id: string;
  /** Set-Cookie headers the answer must carry (a new visitor's id, an access just granted). */
  cookies: string[];
}

export function visitorOf(request: Request): Visitor {
  const existing = readCookie(request, VISITOR_COOKIE);
  if (existing && VISITOR_PATTERN.test(existing)) return { id: existing, cookies: [] };
  const id = randomBytes(32).toString("base64url");
  return { id, cookies: [cookie(request, VISITOR_COOKIE, id, "/api/chat", VISITOR_MAX_AGE_S)] };
}

/** The signer of access cookies, over a key only this server knows. */
export function chatAccessTokens(key: () => Buffer) {
  const mac = (chatId: string, visitorId: string, passwordHash: string, expires: number) =>
    createHmac("sha256", key())
      .update(`chat-access\n${chatId}\n${visitorId}\n${passwordHash}\n${expires}`)
      .digest("base64url");
  return {
    /** Whether the request carries a live access cookie of this visitor for this chat and password. */
    grants(request: Request, chat: { id: string; passwordHash: string }, visitorId: string, now = Date.now()): boolean {
      const [expiresText, given] = (readCookie(request, ACCESS_COOKIE) ?? "").split(".");
      const expires = Number(expiresText);
      if (!given || !Number.isSafeInteger(expires) || expires * 1000 <= now) return false;
      const expected = Buffer.from(mac(chat.id, visitorId, chat.passwordHash, expires));
      const actual = Buffer.from(given);
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
    /** The Set-Cookie header remembering that this visitor gave the chat's password. */
    grant(request: Request, chat: { id: string; passwordHash: string }, visitorId: string, now = Date.now()): string {
      const expires = Math.floor(now / 1000) + ACCESS_MAX_AGE_S;
      return cookie(
        request,
        ACCESS_COOKIE,
        `${expires}.${mac(chat.id, visitorId, chat.passwordHash, expires)}`,
        `/api/chat/${chat.id}`,
        ACCESS_MAX_AGE_S,
      );
    },
  };
}

export type ChatAccessTokens = ReturnType<typeof chatAccessTokens>;

/** Adds a visitor's pending cookies to an answer. */
export function withCookies(response: Response, cookies: readonly string[]): Response {
  for (const value of cookies) response.headers.append("set-cookie", value);
  return response;
}
