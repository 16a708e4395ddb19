import "server-only";
import { RequestError } from "./errors";
import { parseAuthority, parseOrigin, type Authority, type HostPolicy } from "./host-policy";

/** What an endpoint takes as a body and who may call it from a browser; see `endpoint()`. */
export interface RequestGuardOptions {
  /**
   * The one media type its POST, PUT, PATCH or DELETE bodies may have; `any` leaves the media type
   * to the endpoint, and is only for a `public` endpoint authorised by what the request names (a
   * hook takes JSON and forms, and records the refusal of anything else it answers). A cookie
   * never authorises such an endpoint, so a page of another site gains nothing by sending it a form.
   */
  body: "json" | "multipart" | "any";
  /** Other media types a JSON endpoint reads too (a dataset's CSV or JSON-lines import), UTF-8 only. */
  alsoAccepts?: readonly string[];
  /**
   * `same-origin`: only pages of this server may send it changes, and no CORS header is sent.
   * `public`: meant to be called from any site (a chat widget, a hook), so the Origin check is
   * skipped and answers carry `Access-Control-Allow-Origin: *`; such an endpoint must be
   * authorised by what the request names (a hook id, a key), never by a cookie session.
   */
  cors: "same-origin" | "public";
}

const MEDIA_TYPES = { json: "application/json", multipart: "multipart/form-data" } as const;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The name the client addressed: the Host header (Next.js builds `request.url` from its own
 * listening address, not from it), else the URL's host, as for a Request made in-process.
 */
function addressedHost(request: Request): { text: string; authority: Authority | null } {
  const text = request.headers.get("host") ?? new URL(request.url).host;
  return { text, authority: parseAuthority(text) };
}

/** DNS rebinding: a page at the attacker's name, resolved to this server, is refused before anything runs. */
function checkHost(host: { text: string; authority: Authority | null }, policy: HostPolicy): Authority {
  if (host.authority && policy.answersTo(host.authority)) return host.authority;
  throw new RequestError(
    "host_not_allowed",
    `This server does not answer to the host "${host.text}". If Trellis is reached at that name, add it to TRELLIS_ALLOWED_HOSTS or set TRELLIS_PUBLIC_URL.`,
  );
}

/**
 * A change (any method but GET, HEAD and OPTIONS) sent by a page of another site is refused:
 * browsers name the page's origin in `Origin` (or at least say `Sec-Fetch-Site: cross-site`, or
 * `same-site` for a sibling subdomain, another origin all the same), while scripts and curl send
 * neither and are let through (they will need an API key).
 */
function checkOrigin(request: Request, host: Authority, policy: HostPolicy): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.get("origin");
  if (origin !== null) {
    const parsed = parseOrigin(origin);
    if (parsed && policy.acceptsOrigin(parsed, host)) return;
    throw new RequestError(
      "cross_site_request",
      `Refused a change sent from another site (origin ${origin}). If Trellis is served at that origin, set TRELLIS_PUBLIC_URL to it or add its host to TRELLIS_ALLOWED_HOSTS.`,
    );
  }
  const site = request.headers.get("sec-fetch-site");
  if (site === "cross-site" || site === "same-site") {
    throw new RequestError("cross_site_request", `Refused a change sent from another site (Sec-Fetch-Site: ${site}).`);
  }
}

/** Whether the request says it carries a body: over HTTP/1.1 one comes with a length or chunked. */
function declaresBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  if (length !== null) return length.trim() !== "0";
  return request.headers.has("transfer-encoding");
}

/**
 * A body must be the endpoint's media type. The forms a page of another site can send without
 * asking first (text/plain, form encodings, or a body with no type) are refused rather than read
 * as JSON; a bodiless POST (cancel) passes. JSON is read as UTF-8, so another charset is refused.
 */
function checkMediaType(
  request: Request,
  expected: RequestGuardOptions["body"],
  alsoAccepts: readonly string[] = [],
): void {
  if (SAFE_METHODS.has(request.method) || expected === "any") return;
  const wanted = MEDIA_TYPES[expected];
  const sent = request.headers.get("content-type");
  if (sent === null) {
    if (declaresBody(request))
      throw new RequestError("unsupported_media_type", `The request has a body but no Content-Type; send ${wanted}.`);
    return;
  }
  const [essence = "", ...parameters] = sent.split(";").map((part) => part.trim().toLowerCase());
  const also = alsoAccepts.includes(essence);
  if (essence !== wanted && !also)
    throw new RequestError(
      "unsupported_media_type",
      `The request body is ${essence || "of no type"}; send ${[wanted, ...alsoAccepts].join(" or ")}.`,
    );
  const charset = parameters.find((parameter) => parameter.startsWith("charset="))?.slice("charset=".length);
  if ((expected === "json" || also) && charset !== undefined && charset.replace(/"/g, "") !== "utf-8") {
    throw new RequestError("unsupported_media_type", `The request body is ${wanted} in ${charset}; send it as UTF-8.`);
  }
}

/**
 * Every endpoint's first step, before its handler reads anything: the Host check (421
 * host_not_allowed), the Origin check on changes (403 cross_site_request) unless the endpoint is
 * public, then the body's media type (415 unsupported_media_type). Throws the refusal.
 */
export function guardRequest(request: Request, options: RequestGuardOptions, policy: HostPolicy): void {
  const host = checkHost(addressedHost(request), policy);
  if (options.cors !== "public") checkOrigin(request, host, policy);
  checkMediaType(request, options.body, options.alsoAccepts);
}
