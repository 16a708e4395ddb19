import {
  createWebhookRequestSchema,
  WEBHOOK_DELIVERIES_KEPT,
  WEBHOOK_IDEMPOTENCY_HOURS,
  WEBHOOK_MAX_BODY_BYTES,
  WEBHOOK_SIGNATURE_HEADER,
} from "../webhooks";
import { PAGE_PARAMETERS, pathParameter, type ApiOperation } from "./operation";
import {
  createdWebhookSchema,
  webhookBodySchema,
  webhookDeliveriesSchema,
  webhookPageSchema,
  webhookRunResultSchema,
} from "./schemas-webhooks";
import { runStartedSchema } from "./schemas-workflows";

/** Webhooks (docs/CONTRACT.md section 9): lib/webhooks/webhook-endpoints.ts and webhook-receiver.ts. */

const workflowId = pathParameter("id", "The workflow's id.");
const webhookId = pathParameter("id", "The webhook's id.");

export const WEBHOOK_OPERATIONS = [
  {
    operationId: "listWebhooks",
    method: "GET",
    path: "/api/workflows/{id}/webhooks",
    tag: "Deployments",
    summary: "List a workflow's webhooks, newest first (an extension; editors only, as a hook's URL is its credential)",
    access: "member",
    // Editors only: a hook's URL is its credential, and a viewer may not start runs.
    role: "editor",
    parameters: [workflowId, ...PAGE_PARAMETERS],
    answers: [
      {
        status: 200,
        description: "A page of hooks: whether each has a secret, never the secret.",
        schema: webhookPageSchema,
      },
    ],
    errors: [404],
  },
  {
    operationId: "createWebhook",
    method: "POST",
    path: "/api/workflows/{id}/webhooks",
    tag: "Deployments",
    summary: "Make a URL that runs the active deployment",
    description: `With a \`secret\`, every call must carry \`${WEBHOOK_SIGNATURE_HEADER}: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">\` (good within TRELLIS_WEBHOOK_TOLERANCE_S, default 300 s, and once), or the weaker \`sha256=<hex HMAC-SHA256 of the raw body>\` (never expires, so a captured call can be replayed). With \`wait\`, a call is answered with the finished run.`,
    access: "member",
    role: "editor",
    parameters: [workflowId],
    request: {
      schema: createWebhookRequestSchema,
      required: false,
      example: { secret: "a long random string", wait: false },
    },
    answers: [{ status: 201, description: "The hook's id and path.", schema: createdWebhookSchema }],
    errors: [404],
  },
  {
    operationId: "deleteWebhook",
    method: "DELETE",
    path: "/api/webhooks/{id}",
    tag: "Deployments",
    summary: "Delete a webhook (an extension): its URL answers 404 from then on",
    access: "member",
    role: "editor",
    parameters: [webhookId],
    answers: [{ status: 204, description: "Deleted." }],
    errors: [404],
  },
  {
    operationId: "listWebhookDeliveries",
    method: "GET",
    path: "/api/webhooks/{id}/deliveries",
    tag: "Deployments",
    summary: `A webhook's last ${WEBHOOK_DELIVERIES_KEPT} deliveries, newest first (an extension)`,
    access: "member",
    role: "viewer",
    parameters: [webhookId],
    answers: [
      {
        status: 200,
        description: "When each came, what it was answered and the run it started.",
        schema: webhookDeliveriesSchema,
      },
    ],
    errors: [404],
  },
  {
    operationId: "receiveWebhook",
    method: "POST",
    path: "/api/hooks/{hookId}",
    tag: "Deployments",
    summary: "Start the active deployment from another service",
    description: `No credentials: the hook id is the capability, and any site may call it (CORS). A JSON object's fields, or a form's, become the start inputs by name; at most ${WEBHOOK_MAX_BODY_BYTES} bytes (413 beyond, before parsing). A hook with a secret needs \`${WEBHOOK_SIGNATURE_HEADER}\` (401 otherwise, nothing run). The same \`Idempotency-Key\` within ${WEBHOOK_IDEMPOTENCY_HOURS} hours answers the first run's id with \`Idempotent-Replayed: true\` and starts nothing. 409 \`not_deployed\` before the first deploy.`,
    access: "public",
    cors: "public",
    acceptsAnyBody: true,
    parameters: [
      pathParameter("hookId", "The hook's id, from its URL."),
      {
        name: WEBHOOK_SIGNATURE_HEADER,
        in: "header",
        description:
          '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (each good once, within the tolerance window), or the weaker `sha256=<hex HMAC-SHA256 of the raw body>`, when the hook has a secret.',
      },
      {
        name: "Idempotency-Key",
        in: "header",
        description: "Makes a retry safe: a repeat within the window starts nothing.",
      },
    ],
    request: {
      schema: webhookBodySchema,
      required: false,
      description: "Any JSON object, or a form.",
      example: { message: "order 1001 shipped" },
    },
    answers: [
      {
        status: 202,
        description: "The run started (or the first one's, replayed).",
        schema: runStartedSchema,
        headers: { "Idempotent-Replayed": "`true` on a replay." },
      },
      {
        status: 200,
        description: "For a hook made with `wait`: the finished run's outcome (not its trace).",
        schema: webhookRunResultSchema,
      },
    ],
    errors: [400, 401, 404, 409, 413, 415],
  },
] as const satisfies readonly ApiOperation[];
