import { handleErrors } from "@/lib/http/errors";
import { MAX_WORKFLOW_BYTES, readJsonBody } from "@/lib/http/read-json";
import { parseWorkflowDocument } from "@/lib/workflows/parse-document";
import { workflowService } from "@/lib/workflows/service";

export const dynamic = "force-dynamic";

export const GET = handleErrors(async () => {
  return Response.json({ workflows: await workflowService().list() });
});

export const POST = handleErrors(async (request: Request) => {
  const document = parseWorkflowDocument(await readJsonBody(request, MAX_WORKFLOW_BYTES));
  return Response.json(await workflowService().create(document), { status: 201 });
});
