import "server-only";
import { importRequestSchema, zodIssues, type ImportedWorkflow } from "@/contract";
import { endpoint } from "@/lib/http/endpoint";
import { RequestError } from "@/lib/http/errors";
import { describeIssues } from "@/lib/http/issues";
import { MAX_WORKFLOW_BYTES, readJsonBody } from "@/lib/http/read-json";
import type { McpServerNames, WorkflowService } from "../service";
import { importWorkflowFile } from "./import-file";
import { uniqueWorkflowName } from "./unique-name";

/**
 * POST /api/workflows/import: `{ file, name?, model?, mcpServer? }` → 201 `{ workflow, report }`.
 * The file is converted and validated in full before the one save, so a refusal stores nothing. A
 * name the workspace already has is stored as a copy's (`Support (copy)`), and the report says so.
 */
export function importEndpoint(service: () => WorkflowService, mcpServerNames: McpServerNames) {
  return endpoint(async (request, _params, { workspace }) => {
    const parsed = importRequestSchema.safeParse(await readJsonBody(request, MAX_WORKFLOW_BYTES));
    if (!parsed.success) {
      const issues = zodIssues(parsed.error);
      throw new RequestError("invalid_request", describeIssues("The import request", issues), issues);
    }
    const { document, issues, report } = importWorkflowFile(parsed.data, mcpServerNames(workspace.id));
    // A second workflow of the same name would be told apart by nothing: the import takes a free name, as Duplicate does, and says so.
    const name = uniqueWorkflowName(document.name, await service().namesStartingWith(workspace.id, document.name));
    const workflow = await service().create(workspace.id, { ...document, name });
    const answer: ImportedWorkflow = {
      workflow: { ...workflow, issues },
      report: name === document.name ? report : { ...report, renamed: { from: document.name, to: name } },
    };
    return Response.json(answer, { status: 201 });
  });
}
