import { handleErrors } from "@/lib/http/errors";
import { MAX_WORKFLOW_BYTES, readJsonBody } from "@/lib/http/read-json";
import { parseWorkflowUpdate } from "@/lib/workflows/parse-document";
import { workflowService } from "@/lib/workflows/service";

export const dynamic = "force-dynamic";

interface RouteContext {
  params: Promise<{ id: string }>;
}

export const GET = handleErrors(async (_request: Request, context: RouteContext) => {
  const { id } = await context.params;
  return Response.json(await workflowService().get(id));
});

export const PUT = handleErrors(async (request: Request, context: RouteContext) => {
  const { id } = await context.params;
  const { document, version } = parseWorkflowUpdate(await readJsonBody(request, MAX_WORKFLOW_BYTES));
  return Response.json(await workflowService().update(id, document, version));
});

export const DELETE = handleErrors(async (_request: Request, context: RouteContext) => {
  const { id } = await context.params;
  await workflowService().remove(id);
  return new Response(null, { status: 204 });
});
