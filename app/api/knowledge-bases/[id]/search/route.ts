import { handleErrors } from "@/lib/http/errors";
import { search } from "@/lib/knowledge/knowledge-http";
import { getKnowledgeService } from "@/lib/knowledge/knowledge-runtime";

export const dynamic = "force-dynamic";

interface RouteContext {
  params: Promise<{ id: string }>;
}

export const POST = handleErrors(async (request: Request, context: RouteContext) => search(getKnowledgeService(), request, (await context.params).id));
