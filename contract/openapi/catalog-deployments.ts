import { createDeploymentRequestSchema } from "../deployments";
import { startRunRequestSchema } from "../runs";
import { PAGE_PARAMETERS, pathParameter, type ApiOperation } from "./operation";
import { RUN_START_KEY_PARAMETER } from "./catalog-workflows";
import {
  deploymentInfoSchema,
  deploymentPageSchema,
  deploymentWithDocumentSchema,
  documentDiffSchema,
} from "./schemas-deployments";
import { apiRunSchema, runStartedSchema } from "./schemas-workflows";

/** Deployments and running the active one (docs/CONTRACT.md section 9): lib/deployments/deployment-endpoints.ts, lib/runs/run-endpoints.ts. */

const workflowId = pathParameter("id", "The workflow's id.");
const deploymentId = pathParameter("deploymentId", "The deployment's id.");
const diffSide = (name: "from" | "to") => ({
  name,
  in: "query" as const,
  required: true,
  description: `A deployment's id, or \`draft\` for the workflow as saved now.`,
});

export const DEPLOYMENT_OPERATIONS = [
  {
    operationId: "listDeployments",
    method: "GET",
    path: "/api/workflows/{id}/deployments",
    tag: "Deployments",
    summary: "List a workflow's deployments, newest first",
    access: "member",
    role: "viewer",
    parameters: [workflowId, ...PAGE_PARAMETERS],
    answers: [
      {
        status: 200,
        description: "A page of deployments; one is `active` once the workflow was deployed.",
        schema: deploymentPageSchema,
      },
    ],
  },
  {
    operationId: "createDeployment",
    method: "POST",
    path: "/api/workflows/{id}/deployments",
    tag: "Deployments",
    summary: "Deploy the workflow as it is saved now",
    description:
      "The new deployment becomes the active one. A draft with unfinished parts (its `issues`) cannot be deployed: 400 naming them.",
    access: "member",
    role: "editor",
    parameters: [workflowId],
    request: { schema: createDeploymentRequestSchema, required: false, example: { note: "Friendlier greeting" } },
    answers: [{ status: 201, description: "The deployment, active.", schema: deploymentInfoSchema }],
    errors: [404],
  },
  {
    operationId: "getDeployment",
    method: "GET",
    path: "/api/workflows/{id}/deployments/{deploymentId}",
    tag: "Deployments",
    summary: "Read a deployment and the document it froze",
    access: "member",
    role: "viewer",
    parameters: [workflowId, deploymentId],
    answers: [{ status: 200, description: "The deployment with its document.", schema: deploymentWithDocumentSchema }],
  },
  {
    operationId: "activateDeployment",
    method: "POST",
    path: "/api/workflows/{id}/deployments/{deploymentId}/activate",
    tag: "Deployments",
    summary: "Make a deployment the active one",
    description: "Rolls back (or forward): the workflow's triggers run this deployment from now on. Takes no body.",
    access: "member",
    role: "editor",
    parameters: [workflowId, deploymentId],
    answers: [{ status: 200, description: "The deployment, now active.", schema: deploymentInfoSchema }],
  },
  {
    operationId: "diffDeployments",
    method: "GET",
    path: "/api/workflows/{id}/deployments/diff",
    tag: "Deployments",
    summary: "Compare two deployments, or one with the draft",
    access: "member",
    role: "viewer",
    parameters: [workflowId, diffSide("from"), diffSide("to")],
    answers: [
      {
        status: 200,
        description: "What changed from `from` to `to`: blocks by name, and the fields of each changed block.",
        schema: documentDiffSchema,
      },
    ],
  },
  {
    operationId: "executeWorkflow",
    method: "POST",
    path: "/api/workflows/{id}/execute",
    tag: "Deployments",
    summary: "Run the active deployment",
    description:
      "As POST /api/workflows/{id}/runs, but runs the active deployment (editing the workflow afterwards changes nothing it runs). A run started with an API key records the key as its trigger. A workflow never deployed answers 409 `not_deployed`.",
    access: "member",
    role: "editor",
    parameters: [workflowId, RUN_START_KEY_PARAMETER],
    request: { schema: startRunRequestSchema, required: false, example: { input: { message: "Hello" }, wait: true } },
    answers: [
      { status: 202, description: "The run is queued.", schema: runStartedSchema },
      {
        status: 200,
        description:
          "With `wait: true`: the finished run. With `Accept: text/event-stream`: its events, as for POST .../runs.",
        schema: apiRunSchema,
      },
      { status: 200, description: "The run's events as server-sent events.", contentType: "text/event-stream" },
    ],
    errors: [404, 409],
  },
] as const satisfies readonly ApiOperation[];
