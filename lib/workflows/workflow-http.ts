import { handleErrors } from "@/lib/http/errors";
import { MAX_WORKFLOW_BYTES, readJsonBody } from "@/lib/http/read-json";
import { parseWorkflowDocument, parseWorkflowUpdate } from "./parse-document";
import type { WorkflowService } from "./service";

/**
 * The workflow endpoints of docs/CONTRACT.md section 5, over a service given per call, so the routes
 * use the app's database and the tests a fresh one.
 */
export function workflowHttp(service: () => WorkflowService) {
  return {
    list: handleErrors(async () => Response.json({ workflows: await service().list() })),
    create: handleErrors(async (request: Request) => {
      const { document, issues } = parseWorkflowDocument(await readJsonBody(request, MAX_WORKFLOW_BYTES));
      return Response.json({ ...(await service().create(document)), issues }, { status: 201 });
    }),
    get: handleErrors(async (id: string) => Response.json(await service().get(id))),
    update: handleErrors(async (request: Request, id: string) => {
      const { document, issues, version } = parseWorkflowUpdate(await readJsonBody(request, MAX_WORKFLOW_BYTES));
      return Response.json({ ...(await service().update(id, document, version)), issues });
    }),
    remove: handleErrors(async (id: string) => {
      await service().remove(id);
      return new Response(null, { status: 204 });
    }),
  };
}
