import "server-only";
import { createDeploymentRequestSchema } from "@/contract";
import type { AuditRequest } from "@/lib/audit";
import { endpoint } from "@/lib/http/endpoint";
import { RequestError } from "@/lib/http/errors";
import { listPaging, timeAndIdPosition } from "@/lib/http/pagination";
import { readJsonRequest } from "@/lib/http/read-json";
import { deploymentInfo, type DeploymentService } from "./deployment-service";

const deploymentPages = listPaging("deployments", timeAndIdPosition);

/** `?from=` and `?to=` of a diff: a deployment's id or `draft`. */
function diffSide(request: Request, name: "from" | "to"): string {
  const value = new URL(request.url).searchParams.get(name);
  if (!value) {
    throw new RequestError(
      "invalid_request",
      `Say what to compare: ?${name}= a deployment's id, or "draft" for the workflow as saved now.`,
      [{ path: name, message: "is required" }],
    );
  }
  return value;
}

/** The deployment endpoints of docs/CONTRACT.md section 9 (under /api/workflows/:id/deployments). */
export function deploymentEndpoints(service: () => DeploymentService, audit: AuditRequest) {
  return {
    create: endpoint("createDeployment", async (request, { id }, member) => {
      const { note, override } = await readJsonRequest(request, createDeploymentRequestSchema, {
        subject: "The deployment",
        maxBytes: 16 * 1024,
        emptyAs: {},
      });
      const mayOverride = member.workspace.role === "admin" || member.workspace.role === "owner";
      const deployment = await service().deploy(member.workspace.id, id, {
        note,
        userId: member.userId,
        mayOverride,
        override,
      });
      const info = deploymentInfo(deployment);
      // An admin deploying past the evaluation gate is recorded with the note and what the gate found.
      const overridden = info.gateOverride;
      await audit(request, member, {
        action: "workflow.deploy",
        object: { type: "workflow", id, name: deployment.document.name },
        summary: {
          after: {
            deploymentId: deployment.id,
            number: deployment.number,
            workflowVersion: deployment.workflowVersion,
            ...(overridden ? { gateOverride: { note: overridden.note, failures: overridden.failures } } : {}),
          },
        },
      });
      return Response.json(info, { status: 201 });
    }),
    list: endpoint("listDeployments", async (request, { id }, { workspace }) => {
      const page = await service().list(workspace.id, id, deploymentPages.read(request));
      return Response.json(
        deploymentPages.answer("deployments", { items: page.items.map(deploymentInfo), next: page.next }),
      );
    }),
    get: endpoint("getDeployment", async (_request, { id, deploymentId }, { workspace }) =>
      Response.json(await service().get(workspace.id, id, deploymentId)),
    ),
    /** A rollback, or a roll forward: the entry names the deployment made active. */
    activate: endpoint("activateDeployment", async (request, { id, deploymentId }, member) => {
      const deployment = await service().activate(member.workspace.id, id, deploymentId);
      await audit(request, member, {
        action: "workflow.activate",
        object: { type: "workflow", id, name: deployment.document.name },
        summary: { after: { deploymentId, number: deployment.number, workflowVersion: deployment.workflowVersion } },
      });
      return Response.json(deploymentInfo(deployment));
    }),
    diff: endpoint("diffDeployments", async (request, { id }, { workspace }) =>
      Response.json(await service().diff(workspace.id, id, diffSide(request, "from"), diffSide(request, "to"))),
    ),
  };
}

export type DeploymentEndpoints = ReturnType<typeof deploymentEndpoints>;
