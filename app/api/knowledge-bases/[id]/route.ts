import { handleErrors } from "@/lib/http/errors";
import { getKnowledgeService } from "@/lib/knowledge/knowledge-runtime";

export const dynamic = "force-dynamic";

interface RouteContext {
  params: Promise<{ id: string }>;
}

export const GET = handleErrors(async (_request: Request, context: RouteContext) => {
  const { id } = await context.params;
  return Response.json(await getKnowledgeService().getBase(id));
});

export const DELETE = handleErrors(async (_request: Request, context: RouteContext) => {
  const { id } = await context.params;
  await getKnowledgeService().deleteBase(id);
  return new Response(null, { status: 204 });
});
