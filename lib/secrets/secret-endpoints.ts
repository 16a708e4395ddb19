import "server-only";
import { z } from "zod";
import {
  MAX_SECRET_VALUE_BYTES,
  putSecretRequestSchema,
  SECRET_NAME_RULE,
  secretNameSchema,
  type SecretListEntry,
} from "@/contract";
import type { AuditRequest } from "@/lib/audit";
import { processReadCache, type WorkspaceReadCache } from "@/lib/cache";
import type { SecretRepository } from "@/lib/db";
import { endpoint } from "@/lib/http/endpoint";
import { RequestError } from "@/lib/http/errors";
import { listPaging } from "@/lib/http/pagination";
import { readJsonRequest } from "@/lib/http/read-json";

/** A value at the limit, JSON-escaped at its worst (`\uXXXX` per byte), fits. */
const MAX_PUT_BODY_BYTES = MAX_SECRET_VALUE_BYTES * 6 + 1024;

const secretPages = listPaging("secrets", z.tuple([secretNameSchema]).readonly());

/** The `:name` of the path, refused with the rule when it is not a secret's name. */
function secretName(name: string): string {
  if (secretNameSchema.safeParse(name).success) return name;
  const shown = name.length > 64 ? `${name.slice(0, 64)}…` : name;
  throw new RequestError("invalid_request", `"${shown}" is not a secret name: a name ${SECRET_NAME_RULE}.`, [
    { path: "name", message: SECRET_NAME_RULE },
  ]);
}

/**
 * The secret endpoints of docs/CONTRACT.md section 8, over the caller's workspace (editors and
 * above change them; viewers see the names). Values go in and never come out: the list
 * holds names and dates, PUT and DELETE answer 204 with no body. A run reads the secrets stored
 * when it starts, so a key set here applies from the next run on, with no restart.
 */
export function secretEndpoints(
  secrets: () => Pick<SecretRepository, "page" | "set" | "delete">,
  /** Records each change in the audit log: the name, never the value. */
  audit: AuditRequest,
  /** Told of every change, so this process's next run reads the new value (other processes hear the database's notification). */
  readCache: Pick<WorkspaceReadCache, "changing"> = processReadCache(),
) {
  return {
    list: endpoint("listSecrets", async (request, _params, member) => {
      const page = await secrets().page(member.workspace.id, secretPages.read(request));
      const listed: SecretListEntry[] = page.items.map(({ name, updatedAt }) => ({ name, updatedAt }));
      return Response.json(secretPages.answer("secrets", { items: listed, next: page.next }));
    }),
    /** Creates the secret or replaces its value (PUT semantics: a name already stored is replaced). */
    put: endpoint("putSecret", async (request, params, member) => {
      const name = secretName(params.name);
      const { value } = await readJsonRequest(request, putSecretRequestSchema, {
        subject: "The secret",
        maxBytes: MAX_PUT_BODY_BYTES,
      });
      await readCache.changing(member.workspace.id, () => secrets().set(member.workspace.id, name, value));
      await audit(request, member, { action: "secret.set", object: { type: "secret", id: name, name } });
      return new Response(null, { status: 204 });
    }),
    remove: endpoint("deleteSecret", async (request, params, member) => {
      const name = secretName(params.name);
      await readCache.changing(member.workspace.id, () => secrets().delete(member.workspace.id, name));
      await audit(request, member, { action: "secret.delete", object: { type: "secret", id: name, name } });
      return new Response(null, { status: 204 });
    }),
  };
}

export type SecretEndpoints = ReturnType<typeof secretEndpoints>;
