import "server-only";
import { endpoint } from "@/lib/http/endpoint";
import { RequestError } from "@/lib/http/errors";
import type { KnowledgeService } from "./knowledge-service";
import type { DocumentRecord } from "./knowledge-store";
import { readUploadForm } from "./read-upload";

const MAX_KEY_LENGTH = 255;

/** The `Idempotency-Key` header: printable ASCII without spaces at either end, like Stripe's. */
function idempotencyKeyOf(request: Request): string | undefined {
  const key = request.headers.get("idempotency-key");
  if (key === null) return undefined;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(key)) {
    throw new RequestError(
      "invalid_request",
      `The Idempotency-Key header must be 1 to ${MAX_KEY_LENGTH} printable ASCII characters`,
      [{ path: "Idempotency-Key", message: "is not a valid key" }],
    );
  }
  return key;
}

function accepted(documents: DocumentRecord[], replayed: boolean): Response {
  return Response.json(
    { documents: documents.map(({ id, name, status }) => ({ id, name, status })) },
    { status: 202, headers: replayed ? { "idempotent-replayed": "true" } : {} },
  );
}

/**
 * POST /api/knowledge-bases/:id/documents (docs/CONTRACT.md section 5): answers 202 once the files
 * are stored; parsing and chunking happen later in the background. A retry with the same
 * `Idempotency-Key` gets the first answer back, before its body is even read.
 */
export function uploadDocumentsEndpoint(service: () => KnowledgeService) {
  return endpoint("uploadDocuments", async (request, { id }, { workspace }) => {
    const key = idempotencyKeyOf(request);
    await service().getBase(workspace.id, id); // 404 before reading a large body
    if (key) {
      const earlier = await service().findUpload(workspace.id, id, key);
      if (earlier) return accepted(earlier, true);
    }
    const form = await readUploadForm(request);
    try {
      const { documents, replayed } = await service().storeUpload(workspace.id, id, form.files, form.metadata, key);
      return accepted(documents, replayed);
    } finally {
      await form.dispose();
    }
  });
}
