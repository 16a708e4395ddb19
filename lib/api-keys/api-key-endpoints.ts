import "server-only";
import { createApiKeyRequestSchema } from "@/contract";
import { createApiKey, listApiKeys, revokeApiKey, type Caller } from "@/lib/auth";
import type { PrismaClient } from "@/lib/db";
import { endpoint } from "@/lib/http/endpoint";
import { RequestError } from "@/lib/http/errors";
import { readJsonRequest } from "@/lib/http/read-json";

const MAX_CREATE_BODY_BYTES = 16 * 1024;

/** The caller route() authenticated; an endpoint reached any other way has none and answers 401. */
function required(caller: Caller | undefined): Caller {
  if (!caller) throw new RequestError("unauthenticated", "Sign in or send an API key (Authorization: Bearer) to use this API.");
  return caller;
}

/**
 * The API key endpoints of docs/CONTRACT.md section 7, over the caller's own keys (workspaces
 * come later): the key is in the answer of POST only, lists show its prefix, DELETE revokes at
 * once. Another user's key answers 404 like an unknown id.
 */
export function apiKeyEndpoints(prisma: () => PrismaClient) {
  return {
    list: endpoint(async (_request, _params, caller) => Response.json({ apiKeys: await listApiKeys(prisma(), required(caller).userId) })),
    create: endpoint(async (request, _params, caller) => {
      const { userId } = required(caller);
      const body = await readJsonRequest(request, createApiKeyRequestSchema, { subject: "The API key", maxBytes: MAX_CREATE_BODY_BYTES });
      const created = await createApiKey(prisma(), userId, { name: body.name, expiresAt: body.expiresAt ? new Date(body.expiresAt) : null });
      return Response.json(created, { status: 201 });
    }),
    revoke: endpoint<{ id: string }>(async (_request, params, caller) => {
      await revokeApiKey(prisma(), required(caller).userId, params.id);
      return new Response(null, { status: 204 });
    }),
  };
}

export type ApiKeyEndpoints = ReturnType<typeof apiKeyEndpoints>;
