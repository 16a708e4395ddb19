import { handleErrors } from "@/lib/http/errors";
import { getKnowledgeService } from "@/lib/knowledge/knowledge-runtime";

export const dynamic = "force-dynamic";

interface RouteContext {
  params: Promise<{ id: string; documentId: string }>;
}

export const GET = handleErrors(async (_request: Request, context: RouteContext) => {
  const { id, documentId } = await context.params;
  return Response.json(await getKnowledgeService().getDocument(id, documentId));
});

export const DELETE = handleErrors(async (_request: Request, context: RouteContext) => {
  const { id, documentId } = await context.params;
  await getKnowledgeService().deleteDocument(id, documentId);
  return new Response(null, { status: 204 });
});
