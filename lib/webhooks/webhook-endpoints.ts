import "server-only";
import { createWebhookRequestSchema, WEBHOOK_SIGNATURE_HEADER, type CreatedWebhook } from "@/contract";
import { endpoint, publicEndpoint } from "@/lib/http/endpoint";
import { listPaging, timeAndIdPosition } from "@/lib/http/pagination";
import { readJsonRequest } from "@/lib/http/read-json";
import { receiveWebhook, type WebhookReceiverDependencies } from "./webhook-receiver";

const webhookPages = listPaging("webhooks", timeAndIdPosition);

/** What a hook is called from another site with: the preflight allows it, and the replay header may be read. */
const HOOK_CORS = { body: "any", cors: "public" } as const;

/**
 * The webhook endpoints of docs/CONTRACT.md section 9: creating, listing and deleting a workflow's
 * hooks and reading a hook's deliveries (members of its workspace), and the hook itself
 * (`receive`, public: the hook id is the capability), with the OPTIONS answer its callers' browsers ask first.
 */
export function webhookEndpoints(deps: () => WebhookReceiverDependencies) {
  return {
    create: endpoint<{ id: string }>(async (request, { id }, { workspace }) => {
      const { secret, wait } = await readJsonRequest(request, createWebhookRequestSchema, { subject: "The webhook", maxBytes: 16 * 1024, emptyAs: {} });
      const hook = await deps().webhooks.create(workspace.id, id, { ...(secret === undefined ? {} : { secret }), wait });
      const created: CreatedWebhook = { id: hook.id, url: hook.url };
      return Response.json(created, { status: 201 });
    }),
    // Editors only: a hook's URL is its credential, and a viewer may not start runs.
    list: endpoint<{ id: string }>(
      async (request, { id }, { workspace }) =>
        Response.json(webhookPages.answer("webhooks", await deps().webhooks.list(workspace.id, id, webhookPages.read(request)))),
      { role: "editor" },
    ),
    remove: endpoint<{ id: string }>(async (_request, { id }, { workspace }) => {
      await deps().webhooks.delete(workspace.id, id);
      return new Response(null, { status: 204 });
    }),
    deliveries: endpoint<{ id: string }>(async (_request, { id }, { workspace }) =>
      Response.json({ deliveries: await deps().deliveries.list(workspace.id, id) }),
    ),
    receive: publicEndpoint<{ hookId: string }>(async (request, { hookId }) => {
      const response = await receiveWebhook(deps(), hookId, request);
      response.headers.set("access-control-expose-headers", "idempotent-replayed");
      return response;
    }, HOOK_CORS),
    preflight: publicEndpoint<{ hookId: string }>(
      async () =>
        new Response(null, {
          status: 204,
          headers: {
            "access-control-allow-methods": "POST, OPTIONS",
            "access-control-allow-headers": `content-type, ${WEBHOOK_SIGNATURE_HEADER}, idempotency-key`,
            "access-control-max-age": "86400",
          },
        }),
      HOOK_CORS,
    ),
  };
}

export type WebhookEndpoints = ReturnType<typeof webhookEndpoints>;
