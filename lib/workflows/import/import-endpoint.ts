import "server-only";
import { importRequestSchema, zodIssues, type ImportedWorkflow } from "@/contract";
import { endpoint } from "@/lib/http/endpoint";
import { RequestError } from "@/lib/http/errors";
import { describeIssues } from "@/lib/http/issues";
import { MAX_WORKFLOW_BYTES, readJsonBody } from "@/lib/http/read-json";
import type { McpServerNames, WorkflowService } from "../service";
import { importWorkflowFile } from "./import-file";

/**
 * POST /api/workflows/import: `{ file, name?, model?, mcpServer? }` → 201 `{ workflow, report }`.
 * The file is converted and validated in full before the one save, so a refusal stores nothing.
 */
export function importEndpoint(service: () => WorkflowService, mcpServerNames: McpServerNames) {
  return endpoint(async (request, _params, { workspace }) => {
    const parsed = importRequestSchema.safeParse(await readJsonBody(request, MAX_WORKFLOW_BYTES));
    if (!parsed.success) {
      const issues = zodIssues(parsed.error);
      throw new RequestError("invalid_request", describeIssues("The import request", issues), issues);
    }
    const { document, issues, report } = importWorkflowFile(parsed.data, mcpServerNames(workspace.id));
    const workflow = await service().create(workspace.id, document);
    const answer: ImportedWorkflow = { workflow: { ...workflow, issues }, report };
    return Response.json(answer, { status: 201 });
  });
}
