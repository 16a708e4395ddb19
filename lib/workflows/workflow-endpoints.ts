import "server-only";
import type { AuditRequest } from "@/lib/audit";
import { endpoint } from "@/lib/http/endpoint";
import { listPaging, timeAndIdPosition } from "@/lib/http/pagination";
import { MAX_WORKFLOW_BYTES, readJsonBody } from "@/lib/http/read-json";
import { parseWorkflowDocument, parseWorkflowUpdate } from "./parse-document";
import { refuseSelfCall } from "./self-call";
import type { WorkflowService } from "./service";

const workflowPages = listPaging("workflows", timeAndIdPosition);

/**
 * The workflow endpoints of docs/CONTRACT.md section 5, over a service given per call, so the app
 * uses its database and the tests a fresh one. A document is more than a schema (size limits,
 * then shape, then the graph rules), so bodies go through parse-document rather than a zod parse.
 */
export function workflowEndpoints(service: () => WorkflowService, audit: AuditRequest) {
  return {
    list: endpoint("listWorkflows", async (request, _params, { workspace }) =>
      Response.json(workflowPages.answer("workflows", await service().list(workspace.id, workflowPages.read(request)))),
    ),
    create: endpoint("createWorkflow", async (request, _params, member) => {
      const { document, issues } = parseWorkflowDocument(await readJsonBody(request, MAX_WORKFLOW_BYTES));
      const created = await service().create(member.workspace.id, document);
      await audit(request, member, {
        action: "workflow.create",
        object: { type: "workflow", id: created.id, name: created.name },
        summary: { after: { blocks: created.blocks.length } },
      });
      return Response.json({ ...created, issues }, { status: 201 });
    }),
    get: endpoint("getWorkflow", async (_request, { id }, { workspace }) =>
      Response.json(await service().get(workspace.id, id)),
    ),
    update: endpoint("updateWorkflow", async (request, { id }, { workspace }) => {
      const { document, issues, version } = parseWorkflowUpdate(await readJsonBody(request, MAX_WORKFLOW_BYTES));
      refuseSelfCall(id, document);
      return Response.json({ ...(await service().update(workspace.id, id, document, version)), issues });
    }),
    remove: endpoint("deleteWorkflow", async (request, { id }, member) => {
      const before = await service().get(member.workspace.id, id);
      await service().remove(member.workspace.id, id);
      await audit(request, member, {
        action: "workflow.delete",
        object: { type: "workflow", id, name: before.name },
        summary: { before: { version: before.version, blocks: before.blocks.length } },
      });
      return new Response(null, { status: 204 });
    }),
  };
}

export type WorkflowEndpoints = ReturnType<typeof workflowEndpoints>;
