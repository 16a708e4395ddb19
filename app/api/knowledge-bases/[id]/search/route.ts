import { route } from "@/lib/http/route";
import { appKnowledgeEndpoints } from "@/lib/knowledge";

export const dynamic = "force-dynamic";

export const POST = route(appKnowledgeEndpoints.search);
