import { copilotRequestSchema } from "../copilot";
import { pathParameter, type ApiOperation } from "./operation";
import { copilotAnswerSchema } from "./schemas-copilot";

/** The workflow copilot (docs/CONTRACT.md section 16): lib/copilot/copilot-endpoints.ts. */

export const COPILOT_OPERATIONS = [
  {
    operationId: "askCopilot",
    method: "POST",
    path: "/api/workflows/{id}/copilot",
    tag: "Workflows",
    summary: "Ask the copilot to build or change the draft, or about it: answers a proposal, stores nothing",
    description:
      "The chosen model (its key resolved as an Agent block's: the workspace's stored key, then the operator's) is sent the block catalog derived from the block definitions, the reference syntax, the draft, and the names (never the values) of the workspace's knowledge bases, workflows, MCP servers and secrets. It edits a copy of the draft through tools (add, remove, connect, disconnect, set a field, rename, move into a container), each checked as saving checks a document; a refused edit goes back to the model with its reason. The answer is the proposed document, the list of changes, the diff, the run cost estimate before and after, and what the request itself cost, which is counted in usage under trigger `copilot` and held to the workspace's monthly budget. With `runId` (a run of this workflow), the run's status, error and trace go with the question, inputs and outputs withheld. A `version` that is not the draft's current one answers 409 `version_conflict`; the offline model answers 400 `language_model_required`, naming the keys that would enable a model.",
    access: "member",
    role: "editor",
    parameters: [pathParameter("id", "The workflow's id.")],
    request: {
      schema: copilotRequestSchema,
      required: true,
      example: {
        message: "When a support email arrives, classify it and answer refunds with the policy knowledge base",
        model: "openai/gpt-4o-mini",
        version: 3,
      },
    },
    answers: [{ status: 200, description: "The proposal (or the answer to a question).", schema: copilotAnswerSchema }],
    errors: [400, 402, 404, 409, 502],
  },
] as const satisfies readonly ApiOperation[];
