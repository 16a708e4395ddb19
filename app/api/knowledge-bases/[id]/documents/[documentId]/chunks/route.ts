import { route } from "@/lib/http/route";
import { appKnowledgeEndpoints } from "@/lib/knowledge";

export const dynamic = "force-dynamic";

export const GET = route(appKnowledgeEndpoints.listChunks);
