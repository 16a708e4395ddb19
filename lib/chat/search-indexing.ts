import "server-only";
import type { Metadata, MetadataRoute } from "next";

/**
 * Whether search engines may index the public chat pages: only when the operator opts in with
 * TRELLIS_PUBLIC_CHAT_INDEXABLE=1, since a chat link is often shared with a few people and its
 * page would otherwise turn up in search results. Nothing else in Trellis is ever indexable.
 * @throws Error naming the setting and the values it takes, for any other value
 */
export function publicChatIndexable(env: Record<string, string | undefined> = process.env): boolean {
  const raw = env.TRELLIS_PUBLIC_CHAT_INDEXABLE?.trim().toLowerCase() ?? "";
  if (raw === "1" || raw === "true") return true;
  if (raw === "" || raw === "0" || raw === "false") return false;
  throw new Error(
    `TRELLIS_PUBLIC_CHAT_INDEXABLE must be 1 (let search engines index public chat pages) or 0 (the default), not "${raw}"`,
  );
}

/** /robots.txt: everything is off limits, the public chat pages (/chat/…) excepted when opted in. */
export function robotsRules(indexable: boolean): MetadataRoute.Robots {
  return { rules: indexable ? { userAgent: "*", allow: "/chat/", disallow: "/" } : { userAgent: "*", disallow: "/" } };
}

/** A public chat page's robots meta: `noindex` unless opted in; links in answers are never followed. */
export function chatPageRobots(indexable: boolean): NonNullable<Metadata["robots"]> {
  return { index: indexable, follow: false };
}
