import { api, apiErrorFrom } from "@/contract";
import { SAMPLE_KNOWLEDGE } from "@/examples";

/** How long a new sample base may take to process its documents before the template is used anyway. */
const READY_WITHIN_MS = 30_000;

/** Waits until no document of the base is still pending or processing, so the template's first run finds them. */
async function documentsProcessed(id: string): Promise<void> {
  const deadline = Date.now() + READY_WITHIN_MS;
  while (Date.now() < deadline) {
    const documents = await api.knowledge.listDocuments(id);
    if (documents.every((document) => document.status === "ready" || document.status === "failed")) return;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/**
 * The workspace's sample knowledge base, which templates that search one use: found by its name,
 * or made now with the sample documents and returned once they are processed (a second or two
 * with the offline embedder). Returns its id.
 */
export async function ensureSampleKnowledgeBase(): Promise<string> {
  const existing = (await api.knowledge.listBases()).find((base) => base.name === SAMPLE_KNOWLEDGE.name);
  if (existing) return existing.id;
  const base = await api.knowledge.createBase({
    name: SAMPLE_KNOWLEDGE.name,
    description: SAMPLE_KNOWLEDGE.description,
  });
  const form = new FormData();
  for (const document of SAMPLE_KNOWLEDGE.documents)
    form.append("file", new File([document.text], document.name, { type: "text/markdown" }));
  const response = await fetch(api.knowledge.documentsUrl(base.id), { method: "POST", body: form });
  if (!response.ok) throw apiErrorFrom(response.status, await response.text());
  await documentsProcessed(base.id);
  return base.id;
}
