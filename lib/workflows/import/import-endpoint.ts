import "server-only";
import type { AuditRequest } from "@/lib/audit";
import { importRequestSchema, zodIssues, type ImportedWorkflow } from "@/contract";
import { endpoint } from "@/lib/http/endpoint";
import { RequestError } from "@/lib/http/errors";
import { describeIssues } from "@/lib/http/issues";
import { MAX_WORKFLOW_BYTES, readJsonBody } from "@/lib/http/read-json";
import type { McpServerNames, WorkflowService } from "../service";
import { runImportJob } from "./import-job";
import { minimumBlocks, refuseOversizedFile } from "./import-limits";
import { sharedImportThreads, type ImportThreads } from "./import-threads";
import { uniqueWorkflowName } from "./unique-name";

/**
 * POST /api/workflows/import: `{ file, name?, model?, mcpServer? }` → 201 `{ workflow, report }`.
 * The file is converted and validated in full before the one save, so a refusal stores nothing. A
 * name the workspace already has is stored as a copy's (`Support (copy)`), and the report says so.
 * A file past the document limits is refused with 413 before converting; a file that is not small
 * converts in an import thread within its time budget (import-threads.ts), off the event loop.
 */
export function importEndpoint(
  service: () => WorkflowService,
  mcpServerNames: McpServerNames,
  audit: AuditRequest,
  threads: () => ImportThreads = sharedImportThreads,
) {
  return endpoint("importWorkflow", async (request, _params, member) => {
    const { workspace } = member;
    const parsed = importRequestSchema.safeParse(await readJsonBody(request, MAX_WORKFLOW_BYTES));
    if (!parsed.success) {
      const issues = zodIssues(parsed.error);
      throw new RequestError("invalid_request", describeIssues("The import request", issues), issues);
    }
    refuseOversizedFile(parsed.data.file);
    const servers = mcpServerNames(workspace.id);
    const job = { request: parsed.data, mcpServers: servers ? [...servers] : null };
    const declaredBytes = Number(request.headers.get("content-length") ?? "NaN");
    const { document, issues, report } = convertsInline(parsed.data.file, declaredBytes)
      ? runImportJob(job)
      : await threads().run(job);
    // A second workflow of the same name would be told apart by nothing: the import takes a free name, as Duplicate does, and says so.
    const name = uniqueWorkflowName(document.name, await service().namesStartingWith(workspace.id, document.name));
    const workflow = await service().create(workspace.id, { ...document, name });
    await audit(request, member, {
      action: "workflow.import",
      object: { type: "workflow", id: workflow.id, name: workflow.name },
      summary: { after: { format: report.format, blocks: workflow.blocks.length } },
    });
    const answer: ImportedWorkflow = {
      workflow: { ...workflow, issues },
      report: name === document.name ? report : { ...report, renamed: { from: document.name, to: name } },
    };
    return Response.json(answer, { status: 201 });
  });
}

/** Below these a file converts on the request's own thread: a thread's start would cost more than the file. */
export const INLINE_IMPORT_BYTES = 16 * 1024;
export const INLINE_IMPORT_BLOCKS = 50;

function convertsInline(file: unknown, declaredBytes: number): boolean {
  if (!(declaredBytes <= INLINE_IMPORT_BYTES)) return false;
  return (minimumBlocks(file)?.count ?? 0) <= INLINE_IMPORT_BLOCKS;
}
