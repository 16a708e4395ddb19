import type { MetadataRoute } from "next";
import { publicChatIndexable, robotsRules } from "@/lib/chat/search-indexing";

// Read at request time: the operator's setting, not the one at build time.
export const dynamic = "force-dynamic";

export default function robots(): MetadataRoute.Robots {
  return robotsRules(publicChatIndexable());
}
