import "server-only";
import { recordedCall, replayedUsage, type BlockHandler } from "@/executor";
import type { KnowledgeSearchFunction } from "@/knowledge";
import type { KnowledgeConfig } from "./definition";

/**
 * The Knowledge block: one search over the chosen knowledge bases. The search itself is
 * injected (lib/knowledge's service), so this handler stays free of the database.
 */
export function createKnowledgeHandler({ search }: { search: KnowledgeSearchFunction }): BlockHandler<KnowledgeConfig> {
  return async ({ config, context }) => {
    const { knowledgeBaseIds, query, topK, mode, minScore, filters } = config;
    // Kept in the block's memo: a resumed block does not pay for the query's embedding twice, and a replay answers from it.
    const asked = { knowledgeBaseIds, query, topK, mode, minScore, filters };
    const response = await recordedCall(
      context.memo,
      "search",
      "knowledge search",
      () => search(asked, { signal: context.signal }),
      { asked },
    );
    const results = response.results.map(({ content, score, documentId, documentName, chunkIndex }) => ({
      content,
      score,
      documentId,
      documentName,
      chunkIndex,
    }));
    const output = { results, totalResults: results.length, query: response.query };
    if (!response.usage) return { output };
    return { output, usage: context.memo?.replaying ? replayedUsage(response.usage) : response.usage };
  };
}
