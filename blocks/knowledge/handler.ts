import "server-only";
import type { BlockHandler } from "@/executor";
import type { KnowledgeSearchFunction } from "@/knowledge";
import type { KnowledgeConfig } from "./definition";

/**
 * The Knowledge block: one search over the chosen knowledge bases. The search itself is
 * injected (lib/knowledge's service), so this handler stays free of the database.
 */
export function createKnowledgeHandler({ search }: { search: KnowledgeSearchFunction }): BlockHandler<KnowledgeConfig> {
  return async ({ config, context }) => {
    const { knowledgeBaseIds, query, topK, mode, minScore, filters } = config;
    const response = await search({ knowledgeBaseIds, query, topK, mode, minScore, filters }, { signal: context.signal });
    const results = response.results.map(({ content, score, documentId, documentName, chunkIndex }) => ({
      content,
      score,
      documentId,
      documentName,
      chunkIndex,
    }));
    const output = { results, totalResults: results.length, query: response.query };
    return response.usage ? { output, usage: response.usage } : { output };
  };
}
