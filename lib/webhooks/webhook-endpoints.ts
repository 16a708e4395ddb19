import "server-only";
import { createWebhookRequestSchema, type CreatedWebhook } from "@/contract";
import type { AuditRequest } from "@/lib/audit";
import { endpoint } from "@/lib/http/endpoint";
import { listPaging, timeAndIdPosition } from "@/lib/http/pagination";
import { readJsonRequest } from "@/lib/http/read-json";
import { receiveWebhook, type WebhookReceiverDependencies } from "./webhook-receiver";

const webhookPages = listPaging("webhooks", timeAndIdPosition);

/**
 * The webhook endpoints of docs/CONTRACT.md section 9: creating, listing and deleting a workflow's
 * hooks and reading a hook's deliveries (members of its workspace), and the hook itself
 * (`receive`, public: the hook id is the capability). Its CORS headers and the preflight its callers' browsers ask first come from its declaration (contract/openapi/catalog-webhooks.ts).
 */
export function webhookEndpoints(deps: () => WebhookReceiverDependencies, audit: AuditRequest) {
  return {
    create: endpoint("createWebhook", async (request, { id }, member) => {
      const { workspace } = member;
      const { secret, wait } = await readJsonRequest(request, createWebhookRequestSchema, {
        subject: "The webhook",
        maxBytes: 16 * 1024,
        emptyAs: {},
      });
      const hook = await deps().webhooks.create(workspace.id, id, {
        ...(secret === undefined ? {} : { secret }),
        wait,
      });
      await audit(request, member, {
        action: "webhook.create",
        object: { type: "webhook", id: hook.id, name: null },
        // Whether it has a secret, never the secret.
        summary: { after: { workflowId: id, signed: secret !== undefined, wait } },
      });
      const created: CreatedWebhook = { id: hook.id, url: hook.url };
      return Response.json(created, { status: 201 });
    }),
    list: endpoint("listWebhooks", async (request, { id }, { workspace }) =>
      Response.json(
        webhookPages.answer("webhooks", await deps().webhooks.list(workspace.id, id, webhookPages.read(request))),
      ),
    ),
    remove: endpoint("deleteWebhook", async (request, { id }, member) => {
      await deps().webhooks.delete(member.workspace.id, id);
      await audit(request, member, { action: "webhook.delete", object: { type: "webhook", id, name: null } });
      return new Response(null, { status: 204 });
    }),
    deliveries: endpoint("listWebhookDeliveries", async (_request, { id }, { workspace }) =>
      Response.json({ deliveries: await deps().deliveries.list(workspace.id, id) }),
    ),
    receive: endpoint("receiveWebhook", async (request, { hookId }) => receiveWebhook(deps(), hookId, request)),
  };
}

export type WebhookEndpoints = ReturnType<typeof webhookEndpoints>;
