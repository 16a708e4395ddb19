import "server-only";
import { createHash } from "node:crypto";
import { RequestError } from "@/lib/http/errors";
import { readBodyCapped } from "@/lib/http/read-capped";

/** Auth bodies are a few fields; anything larger is refused before better-auth parses it. */
const MAX_AUTH_BODY_BYTES = 64 * 1024;

/**
 * The header better-auth reads the client's address from (its rate limits, its sessions' IP): set
 * by addressedRequest from what client-address.ts found, and any value the client sent removed.
 */
export const CLIENT_ADDRESS_HEADER = "x-trellis-client-address";

/** Whether the request reached Trellis over https (itself, or a proxy that says so). */
export function cameOverHttps(request: Request): boolean {
  if (new URL(request.url).protocol === "https:") return true;
  return request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() === "https";
}

export interface AddressedRequest {
  /** The request as the browser addressed it: its Host and scheme in the URL, its body read. */
  request: Request;
  body: Uint8Array<ArrayBuffer> | undefined;
}

/** The request's URL with the Host header's name and the scheme it came over (see addressedRequest). */
export function addressedUrl(request: Request): URL {
  const url = new URL(request.url);
  const host = request.headers.get("host");
  if (host) url.host = host;
  url.protocol = cameOverHttps(request) ? "https:" : "http:";
  return url;
}

/**
 * better-auth takes its base URL and the origin it trusts from `request.url`, but Next.js builds
 * that URL from its own listening name (`localhost`), not from the name the browser used
 * (127.0.0.1, a LAN address), so a sign-in from such a page would be refused as cross-origin.
 * The URL is rebuilt from the Host header, which the request guard has checked against the
 * names this server answers to (DNS rebinding) before this runs. `clientAddress` goes in
 * CLIENT_ADDRESS_HEADER.
 */
export async function addressedRequest(request: Request, clientAddress: string | null): Promise<AddressedRequest> {
  const url = addressedUrl(request);
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  const body = hasBody
    ? await readBodyCapped(
        request,
        MAX_AUTH_BODY_BYTES,
        () => new RequestError("too_large", `The request body is over ${MAX_AUTH_BODY_BYTES / 1024} KB.`),
      )
    : undefined;
  const headers = new Headers(request.headers);
  headers.delete(CLIENT_ADDRESS_HEADER);
  if (clientAddress !== null) headers.set(CLIENT_ADDRESS_HEADER, clientAddress);
  return { request: new Request(url, { method: request.method, headers, body, signal: request.signal }), body };
}

/** The email a sign-in's body names (JSON or a form), trimmed and in lower case; undefined when it names none. */
export function signInEmail(contentType: string | null, body: Uint8Array | undefined): string | undefined {
  if (!body?.byteLength) return undefined;
  let email: unknown;
  try {
    const text = new TextDecoder().decode(body);
    if (contentType?.includes("application/json")) email = (JSON.parse(text) as { email?: unknown } | null)?.email;
    else if (contentType?.includes("application/x-www-form-urlencoded")) email = new URLSearchParams(text).get("email");
  } catch {
    return undefined; // better-auth refuses the body itself
  }
  if (typeof email !== "string" || !email.trim()) return undefined;
  return email.trim().toLowerCase();
}

/** `sign-in|<sha-256 of the email>`: the account a sign-in names, for its own rate limit. */
export function signInAccountKey(contentType: string | null, body: Uint8Array | undefined): string | undefined {
  const email = signInEmail(contentType, body);
  return email === undefined ? undefined : `sign-in|${createHash("sha256").update(email).digest("hex")}`;
}
