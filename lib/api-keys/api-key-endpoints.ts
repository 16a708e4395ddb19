import "server-only";
import type { AuditRequest } from "@/lib/audit";
import { createApiKeyRequestSchema } from "@/contract";
import { createApiKey, listApiKeys, revokeApiKey, type Member } from "@/lib/auth";
import type { PrismaClient } from "@/lib/db";
import { endpoint } from "@/lib/http/endpoint";
import { listPaging, timeAndIdPosition } from "@/lib/http/pagination";
import { readJsonRequest } from "@/lib/http/read-json";

const MAX_CREATE_BODY_BYTES = 16 * 1024;

const apiKeyPages = listPaging("api-keys", timeAndIdPosition);

/** Keys are a person's own, per workspace. */
const ownerOf = (member: Member) => ({ userId: member.userId, workspaceId: member.workspace.id });

/**
 * The API key endpoints of docs/CONTRACT.md section 7, over the caller's own keys in the workspace
 * it acts in: the key is in the answer of POST only, lists show its prefix, DELETE revokes at
 * once (with every key the revoked key minted). Another user's key, or one of another workspace, answers 404 like an unknown id.
 */
export function apiKeyEndpoints(prisma: () => PrismaClient, audit: AuditRequest) {
  return {
    list: endpoint("listApiKeys", async (request, _params, member) =>
      Response.json(
        apiKeyPages.answer("apiKeys", await listApiKeys(prisma(), ownerOf(member), apiKeyPages.read(request))),
      ),
    ),
    create: endpoint("createApiKey", async (request, _params, member) => {
      const body = await readJsonRequest(request, createApiKeyRequestSchema, {
        subject: "The API key",
        maxBytes: MAX_CREATE_BODY_BYTES,
      });
      const created = await createApiKey(prisma(), ownerOf(member), {
        name: body.name,
        expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
        // A key made with a key is that key's: it ends when the minting key is revoked, and expires no later.
        mintedBy: member.via === "api-key" ? member.apiKeyId : null,
      });
      await audit(request, member, {
        action: "apiKey.create",
        object: { type: "apiKey", id: created.id, name: created.name },
        summary: { after: { prefix: created.prefix, expiresAt: created.expiresAt } },
      });
      return Response.json(created, { status: 201 });
    }),
    revoke: endpoint("revokeApiKey", async (request, params, member) => {
      const revoked = await revokeApiKey(prisma(), ownerOf(member), params.id);
      await audit(request, member, {
        action: "apiKey.revoke",
        object: { type: "apiKey", id: params.id, name: revoked.name },
        summary: { before: { prefix: revoked.prefix } },
      });
      return new Response(null, { status: 204 });
    }),
  };
}

export type ApiKeyEndpoints = ReturnType<typeof apiKeyEndpoints>;
