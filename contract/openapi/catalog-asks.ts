import { askAnswerRequestSchema } from "../asks";
import { pathParameter, type ApiOperation } from "./operation";
import { askAnsweredSchema, chatAskAnsweredSchema, runAsksSchema } from "./schemas-asks";

/** Human in the loop (docs/CONTRACT.md section 10): lib/runs/ask-endpoints.ts. */

const runId = pathParameter("id", "The run's id.");

export const ASK_OPERATIONS = [
  {
    operationId: "listRunAsks",
    method: "GET",
    path: "/api/runs/{id}/asks",
    tag: "Runs",
    summary: "List the asks waiting for an answer",
    description:
      "The ask blocks of the run waiting for a person now; several wait at once when they are on parallel paths.",
    access: "member",
    role: "viewer",
    parameters: [runId],
    answers: [
      { status: 200, description: "The run's status and its waiting asks (not paged).", schema: runAsksSchema },
    ],
  },
  {
    operationId: "answerRunAsk",
    method: "POST",
    path: "/api/runs/{id}/asks/{spanId}",
    tag: "Runs",
    summary: "Answer a waiting ask",
    description:
      "`choice` must be one of the ask's choice ids (required when it has choices), `text` only when it allows text, and `fields` holds every declared field with its type. The run goes on, on any worker, down the chosen choice's path; the ask's output and span record who answered and when.",
    access: "member",
    role: "editor",
    parameters: [
      runId,
      pathParameter("spanId", "The ask's id, from GET /api/runs/{id}/asks or the `ask.requested` event."),
    ],
    request: {
      schema: askAnswerRequestSchema,
      required: true,
      example: { choice: "approve", text: "Looks right", fields: { amount: 120 } },
    },
    answers: [{ status: 202, description: "The answer is taken; the run goes on.", schema: askAnsweredSchema }],
    errors: [404, 409],
  },
  {
    operationId: "answerChatAsk",
    method: "POST",
    path: "/api/chat/{chatId}/conversations/{conversationId}/asks/{spanId}",
    tag: "Chat",
    summary: "Answer the question the reply waits on",
    description:
      "Extension. No credentials: the chat visitor cookie says whose conversation it is (404 for another's). The ask is one the conversation's latest reply waits on, from the `ask.requested` event of its stream; the body is as in POST /api/runs/{id}/asks/{spanId}, and the reply's stream goes on.",
    access: "public",
    parameters: [
      pathParameter("chatId", "The chat's id, from its link."),
      pathParameter("conversationId", "One of this browser's conversations."),
      pathParameter("spanId", "The ask's id, from the stream's `ask.requested` event."),
    ],
    request: { schema: askAnswerRequestSchema, required: true, example: { choice: "yes" } },
    answers: [{ status: 202, description: "The answer is taken; the reply goes on.", schema: chatAskAnsweredSchema }],
    errors: [401, 404, 409],
  },
] as const satisfies readonly ApiOperation[];
