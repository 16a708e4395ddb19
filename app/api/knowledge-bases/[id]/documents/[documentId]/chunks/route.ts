import { handleErrors } from "@/lib/http/errors";
import { listChunks } from "@/lib/knowledge/knowledge-http";
import { getKnowledgeService } from "@/lib/knowledge/knowledge-runtime";

export const dynamic = "force-dynamic";

interface RouteContext {
  params: Promise<{ id: string; documentId: string }>;
}

export const GET = handleErrors(async (request: Request, context: RouteContext) => {
  const { id, documentId } = await context.params;
  return listChunks(getKnowledgeService(), request, id, documentId);
});
