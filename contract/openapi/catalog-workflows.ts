import { z } from "zod";
import { RUN_TRIGGER_KINDS } from "../deployments";
import {
  approvalDecisionSchema,
  replayRequestSchema,
  rerunRequestSchema,
  RUN_STATUSES,
  startRunRequestSchema,
} from "../runs";
import { workflowDocumentSchema } from "../workflow-document";
import { PAGE_PARAMETERS, pathParameter, type ApiOperation, type OperationParameter } from "./operation";
import {
  apiRunSchema,
  approvalDecidedSchema,
  runApprovalsSchema,
  runCancellingSchema,
  runDocumentSchema,
  runPageSchema,
  rerunStartedSchema,
  replayStartedSchema,
  runStartedSchema,
  savedWorkflowSchema,
  storedWorkflowSchema,
  workflowPageSchema,
  workflowUpdateRequestSchema,
  workspaceRunPageSchema,
} from "./schemas-workflows";
import { runDiffSchema } from "./schemas-run-diff";

/** Workflows and runs (docs/CONTRACT.md sections 5, 6 and 10): lib/workflows/workflow-endpoints.ts, lib/runs/run-endpoints.ts, approval-endpoints.ts. */

/** Makes a retried start safe (POST .../runs and .../execute). */
export const RUN_START_KEY_PARAMETER: OperationParameter = {
  name: "Idempotency-Key",
  in: "header",
  description:
    "Makes a retried start safe: the same key on the same workflow within 24 hours starts nothing and answers 202 with the first run's id and `Idempotent-Replayed: true`. 1 to 255 printable ASCII characters (400 otherwise). A start that was refused leaves the key free.",
};

/** Who started the runs listed. */
const STARTED_BY_PARAMETERS: OperationParameter[] = [
  {
    name: "userId",
    in: "query",
    description: "Only runs this member started with a session (the editor, a rerun, a replay).",
  },
  {
    name: "apiKeyId",
    in: "query",
    description: "Only runs started with this API key. Not together with `userId` (400).",
  },
];

const workflowId = pathParameter("id", "The workflow's id.");
const runId = pathParameter("id", "The run's id.");

/** A workflow a new workspace can run at once: the built-in offline model needs no key. */
const exampleDocument = {
  name: "Echo",
  blocks: [
    {
      id: "start",
      type: "start",
      name: "Start",
      position: { x: 0, y: 0 },
      config: { inputs: [{ name: "message", type: "string" }] },
    },
    {
      id: "agent1",
      type: "agent",
      name: "Agent",
      position: { x: 240, y: 0 },
      config: { model: "offline/echo", userPrompt: "<start.message>" },
    },
  ],
  edges: [{ id: "e1", source: "start", target: "agent1" }],
};

const STREAM =
  "The run's events as server-sent events (docs/CONTRACT.md section 6): each has `id` (its number in the run, from 1), `event` (its type) and `data` (the event as JSON). The stream ends after the run's last event.";

export const WORKFLOW_OPERATIONS = [
  {
    operationId: "listWorkflows",
    method: "GET",
    path: "/api/workflows",
    tag: "Workflows",
    summary: "List workflows, most recently updated first",
    access: "member",
    role: "viewer",
    parameters: PAGE_PARAMETERS,
    answers: [{ status: 200, description: "A page of workflows.", schema: workflowPageSchema }],
  },
  {
    operationId: "createWorkflow",
    method: "POST",
    path: "/api/workflows",
    tag: "Workflows",
    summary: "Create a workflow",
    description:
      "The body is a workflow document (docs/CONTRACT.md section 1), at most 5 MB, 2,000 blocks and 10,000 edges. Its shape and graph rules are checked; unfinished parts of a draft are stored and listed in `issues`.",
    access: "member",
    role: "editor",
    request: { schema: workflowDocumentSchema, required: true, example: exampleDocument },
    answers: [
      {
        status: 201,
        description: "The stored workflow, version 1, with the draft's unfinished parts.",
        schema: savedWorkflowSchema,
      },
    ],
  },
  {
    operationId: "getWorkflow",
    method: "GET",
    path: "/api/workflows/{id}",
    tag: "Workflows",
    summary: "Read a workflow",
    access: "member",
    role: "viewer",
    parameters: [workflowId],
    answers: [{ status: 200, description: "The stored workflow.", schema: storedWorkflowSchema }],
  },
  {
    operationId: "updateWorkflow",
    method: "PUT",
    path: "/api/workflows/{id}",
    tag: "Workflows",
    summary: "Replace a workflow's document",
    description:
      "Send the whole document and the `version` it was based on. A stale version answers 409 and nothing is stored on any error.",
    access: "member",
    role: "editor",
    parameters: [workflowId],
    request: { schema: workflowUpdateRequestSchema, required: true, example: { ...exampleDocument, version: 1 } },
    answers: [{ status: 200, description: "The stored workflow, its version one more.", schema: savedWorkflowSchema }],
    errors: [404, 409],
  },
  {
    operationId: "deleteWorkflow",
    method: "DELETE",
    path: "/api/workflows/{id}",
    tag: "Workflows",
    summary: "Delete a workflow and its runs",
    access: "member",
    role: "editor",
    parameters: [workflowId],
    answers: [{ status: 204, description: "Deleted." }],
    errors: [404],
  },
  {
    operationId: "startRun",
    method: "POST",
    path: "/api/workflows/{id}/runs",
    tag: "Runs",
    summary: "Start a run",
    description:
      "The run is stored `queued` before anything executes. With `Accept: text/event-stream` the answer is its event stream; with `wait: true`, the finished run; otherwise 202 at once. An empty body starts a run with no input. With `test: true` it is a test run: API, web, `services.fetch` and side-effecting tool calls are answered from the blocks' `testing` samples (or say there is none) and never sent; models run unless a block has a recorded answer; each simulated call's span says `simulated`.",
    access: "member",
    role: "editor",
    parameters: [workflowId, RUN_START_KEY_PARAMETER],
    request: { schema: startRunRequestSchema, required: false, example: { input: { message: "Hello" } } },
    answers: [
      { status: 202, description: "The run is queued.", schema: runStartedSchema },
      {
        status: 200,
        description: "With `wait: true`: the finished run, as GET /api/runs/{id} answers it.",
        schema: apiRunSchema,
      },
      { status: 200, description: STREAM, contentType: "text/event-stream" },
    ],
    errors: [404],
  },
  {
    operationId: "listRuns",
    method: "GET",
    path: "/api/workflows/{id}/runs",
    tag: "Runs",
    summary: "List a workflow's runs, newest first",
    access: "member",
    role: "viewer",
    parameters: [
      workflowId,
      ...PAGE_PARAMETERS,
      {
        name: "status",
        in: "query",
        description: `Only runs in these statuses, comma-separated (or the parameter repeated): ${RUN_STATUSES.join(", ")}.`,
      },
      {
        name: "trigger",
        in: "query",
        description: `Only runs started this way, comma-separated (or repeated): ${RUN_TRIGGER_KINDS.join(", ")}.`,
      },
      {
        name: "deployment",
        in: "query",
        description: "Only the runs of this deployment (its id), or `draft` for the runs of the workflow as saved.",
      },
      ...STARTED_BY_PARAMETERS,
    ],
    answers: [{ status: 200, description: "A page of runs.", schema: runPageSchema }],
  },
  {
    operationId: "listWorkspaceRuns",
    method: "GET",
    path: "/api/runs",
    tag: "Runs",
    summary: "List every run of the workspace, newest first",
    description:
      "The runs of all the workspace's workflows in one list, each with its workflow's name; the filters combine.",
    access: "member",
    role: "viewer",
    parameters: [
      ...PAGE_PARAMETERS,
      {
        name: "workflow",
        in: "query",
        description: "Only the runs of this workflow (its id); 404 when it is not one of the workspace's.",
      },
      {
        name: "status",
        in: "query",
        description: `Only runs in these statuses, comma-separated (or the parameter repeated): ${RUN_STATUSES.join(", ")}.`,
      },
      {
        name: "trigger",
        in: "query",
        description: `Only runs started this way, comma-separated (or repeated): ${RUN_TRIGGER_KINDS.join(", ")}.`,
      },
      ...STARTED_BY_PARAMETERS,
    ],
    answers: [{ status: 200, description: "A page of runs.", schema: workspaceRunPageSchema }],
    errors: [404],
  },
  {
    operationId: "getRun",
    method: "GET",
    path: "/api/runs/{id}",
    tag: "Runs",
    summary: "Read a run with its spans",
    access: "member",
    role: "viewer",
    parameters: [runId],
    answers: [{ status: 200, description: "The run and its trace.", schema: apiRunSchema }],
  },
  {
    operationId: "getRunDocument",
    method: "GET",
    path: "/api/runs/{id}/document",
    tag: "Runs",
    summary: "Read the workflow a run ran",
    description:
      "Extension. The workflow document as it was when the run started (the draft, or the deployment it ran) and its version: the graph to show the run on after the workflow has changed.",
    access: "member",
    role: "viewer",
    parameters: [runId],
    answers: [{ status: 200, description: "The document and version the run ran.", schema: runDocumentSchema }],
  },
  {
    operationId: "followRunEvents",
    method: "GET",
    path: "/api/runs/{id}/events",
    tag: "Runs",
    summary: "Follow a run's events",
    description: "Replays the run's events from the start (or after `Last-Event-ID`), then live until it ends.",
    access: "member",
    role: "viewer",
    parameters: [
      runId,
      {
        name: "Last-Event-ID",
        in: "header",
        description: "The id of the last event seen: the stream goes on after it.",
        schema: z.number().int().min(0),
      },
    ],
    answers: [{ status: 200, description: STREAM, contentType: "text/event-stream" }],
  },
  {
    operationId: "cancelRun",
    method: "POST",
    path: "/api/runs/{id}/cancel",
    tag: "Runs",
    summary: "Cancel a run",
    description:
      "Takes no body. The run ends `cancelled` soon after, wherever it executes; a run that has ended is left as it is.",
    access: "member",
    role: "editor",
    parameters: [runId],
    answers: [{ status: 202, description: "The run is being cancelled.", schema: runCancellingSchema }],
  },
  {
    operationId: "rerunRun",
    method: "POST",
    path: "/api/runs/{id}/rerun",
    tag: "Runs",
    summary: "Run again from a block",
    description:
      "Starts a new run of the workflow's current draft with the finished run's input. The blocks that are neither `blockId` nor after it (in the draft's graph) are not executed: their results in the finished run are reused (no model call is repeated, and the new run's usage counts only what it spends). A block inside a loop or parallel runs from its outermost container. The new run's `rerunOf` names the run and block. Refused (400) when the run has not finished, when `blockId` is not in the draft or did not run (succeed or fail) in that run, and for a child run (a workflow run by another keeps no results to reuse: re-run its parent).",
    access: "member",
    role: "editor",
    parameters: [runId],
    request: { schema: rerunRequestSchema, required: true, example: { blockId: "agent1" } },
    answers: [{ status: 202, description: "The new run is queued.", schema: rerunStartedSchema }],
    errors: [400, 404],
  },
  {
    operationId: "replayRun",
    method: "POST",
    path: "/api/runs/{id}/replay",
    tag: "Runs",
    summary: "Replay a run without paying",
    description:
      "Starts a new run of the workflow's current draft with the finished run's input, in which every model call and tool call is answered from what that run recorded: no provider is contacted, no tool acts, and the run costs $0 (its model spans keep the recorded tokens). Its `trigger.kind` is `replay` and `replayOf` names the source. Edits to blocks that call nothing (a condition, a function, a response) take effect; a model call whose request differs from the recorded one (a changed prompt), or that the source run never made (a newly reached block), fails its block with `not_recorded`, naming what changed, and nothing is sent. With `wait: true` the answer is the finished replay. Refused (409) while the source run is still going, and (400) for a child run.",
    access: "member",
    role: "editor",
    parameters: [runId],
    request: { schema: replayRequestSchema, required: false, example: { wait: true } },
    answers: [
      { status: 202, description: "The replay is queued.", schema: replayStartedSchema },
      { status: 200, description: "With `wait: true`: the finished replay.", schema: apiRunSchema },
    ],
    errors: [400, 404, 409],
  },
  {
    operationId: "diffRuns",
    method: "GET",
    path: "/api/runs/{id}/diff/{otherId}",
    tag: "Runs",
    summary: "Compare two runs block by block",
    description:
      "Compares two runs of the same workflow block by block (matched by block id and loop iteration): status, output (a word diff where one text field changed, changed JSON paths otherwise), tokens, cost and duration, with the largest changes first. Refused (400) for runs of different workflows.",
    access: "member",
    role: "viewer",
    parameters: [runId, pathParameter("otherId", "The other run's id: the diff reads from `id` to `otherId`.")],
    answers: [{ status: 200, description: "What differs, per block.", schema: runDiffSchema }],
    errors: [400, 404],
  },
  {
    operationId: "listRunApprovals",
    method: "GET",
    path: "/api/runs/{id}/approvals",
    tag: "Runs",
    summary: "List the tool calls waiting for a person",
    access: "member",
    role: "viewer",
    parameters: [runId],
    answers: [
      {
        status: 200,
        description: "The run's status and its waiting tool calls (not paged).",
        schema: runApprovalsSchema,
      },
    ],
  },
  {
    operationId: "decideRunApproval",
    method: "POST",
    path: "/api/runs/{id}/approvals/{toolCallId}",
    tag: "Runs",
    summary: "Approve or deny a waiting tool call",
    description:
      "The paused run resumes on any worker. A denied call returns an error to the model, which may go on without the tool.",
    access: "member",
    role: "editor",
    parameters: [
      runId,
      pathParameter(
        "toolCallId",
        "The waiting call's id, from GET /api/runs/{id}/approvals or the `tool.approval.requested` event.",
      ),
    ],
    request: {
      schema: approvalDecisionSchema,
      required: true,
      example: { approved: false, reason: "Not on a Friday" },
    },
    answers: [{ status: 200, description: "The decision as recorded.", schema: approvalDecidedSchema }],
    errors: [404],
  },
] as const satisfies readonly ApiOperation[];
