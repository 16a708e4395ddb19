import { api, apiErrorFrom } from "@/contract";
import { SAMPLE_KNOWLEDGE } from "@/examples";

/**
 * The workspace's sample knowledge base, which templates that search one use: found by its name,
 * or made now with the sample documents (processed in the background, in a second or two with the
 * offline embedder). Returns its id.
 */
export async function ensureSampleKnowledgeBase(): Promise<string> {
  const existing = (await api.knowledge.listBases()).find((base) => base.name === SAMPLE_KNOWLEDGE.name);
  if (existing) return existing.id;
  const base = await api.knowledge.createBase({ name: SAMPLE_KNOWLEDGE.name, description: SAMPLE_KNOWLEDGE.description });
  const form = new FormData();
  for (const document of SAMPLE_KNOWLEDGE.documents) form.append("file", new File([document.text], document.name, { type: "text/markdown" }));
  const response = await fetch(api.knowledge.documentsUrl(base.id), { method: "POST", body: form });
  if (!response.ok) throw apiErrorFrom(response.status, await response.text());
  return base.id;
}
