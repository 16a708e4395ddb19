import { jsonSchema, tool } from "ai";
import { BlockExecutionError } from "@/core";
import type { KnowledgeSearchFunction } from "@/knowledge";
import type { SearchMode } from "@/contract";
import type { ToolEntry, ToolProvider } from "../types";

export const KNOWLEDGE_SEARCH_TOOL_TYPE = "knowledge_search";

interface SearchParams {
  knowledgeBaseIds: string[];
  topK?: number;
  mode?: SearchMode;
  minScore?: number;
  filters?: Record<string, unknown>;
}

function stringList(value: unknown): string[] {
  if (typeof value === "string" && value) return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === "string" && item.length > 0);
  return [];
}

/** `params` as the seed writes them: `{ knowledgeBaseId }` or `{ knowledgeBaseIds }` (the entry's schema requires one), plus search options. */
function paramsOf(entry: ToolEntry, index: number): SearchParams {
  const params = entry.params ?? {};
  // Either may still be empty: a list with nothing in it, or a reference that resolved to nothing.
  const knowledgeBaseIds = [...stringList(params.knowledgeBaseId), ...stringList(params.knowledgeBaseIds)];
  if (knowledgeBaseIds.length === 0) {
    throw new BlockExecutionError(
      `tools[${index}] (knowledge_search) needs params.knowledgeBaseId or params.knowledgeBaseIds`,
      { code: "invalid_tool" },
    );
  }
  const result: SearchParams = { knowledgeBaseIds };
  if (typeof params.topK === "number") result.topK = params.topK;
  if (params.mode === "hybrid" || params.mode === "vector" || params.mode === "keyword") result.mode = params.mode;
  if (typeof params.minScore === "number") result.minScore = params.minScore;
  if (typeof params.filters === "object" && params.filters !== null && !Array.isArray(params.filters))
    result.filters = params.filters as Record<string, unknown>;
  return result;
}

/**
 * `knowledge_search`, the tool an Agent calls before answering (the seed's refund-policy
 * example). The knowledge bases and options are fixed by the tool entry; the model supplies
 * only the query.
 */
export function createKnowledgeSearchToolProvider({ search }: { search: KnowledgeSearchFunction }): ToolProvider {
  return {
    tools: [
      {
        type: KNOWLEDGE_SEARCH_TOOL_TYPE,
        label: "Knowledge search",
        description:
          "Searches the given knowledge bases (params.knowledgeBaseId) and returns the best matching passages.",
        params: [
          { name: "knowledgeBaseId", label: "Knowledge base", kind: "knowledgeBase", required: true },
          { name: "topK", label: "Results (top K)", kind: "number", description: "How many passages to return" },
          { name: "mode", label: "Search mode", kind: "select", options: ["hybrid", "vector", "keyword"] },
          { name: "minScore", label: "Minimum score", kind: "number" },
        ],
      },
    ],
    createTools(entries, context) {
      return Object.fromEntries(
        entries.map((entry, index) => {
          const params = paramsOf(entry, index);
          const name =
            entry.name ?? (index === 0 ? KNOWLEDGE_SEARCH_TOOL_TYPE : `${KNOWLEDGE_SEARCH_TOOL_TYPE}_${index + 1}`);
          const definition = tool({
            description:
              "Searches the team's knowledge base and returns passages with a relevance score and their source document. Call it before answering questions about policies, products or procedures, and base the answer on the passages.",
            inputSchema: jsonSchema<{ query: string }>({
              type: "object",
              properties: {
                query: { type: "string", description: "What to look for, in a few words (e.g. refund policy)" },
              },
              required: ["query"],
              additionalProperties: false,
            }),
            execute: async ({ query }) => {
              const response = await search({ ...params, query }, { signal: context.signal });
              const results = response.results.map(({ content, score, documentName, documentId, chunkIndex }) => ({
                content,
                score,
                documentName,
                documentId,
                chunkIndex,
              }));
              return { results, totalResults: results.length };
            },
          });
          return [name, definition];
        }),
      );
    },
  };
}
