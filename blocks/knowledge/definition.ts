import { z } from "zod";
import { STANDARD_HANDLES, type BlockDefinition } from "../types";

export const knowledgeConfigSchema = z.object({
  knowledgeBaseIds: z.array(z.string().min(1)).min(1, "choose at least one knowledge base"),
  query: z.string().min(1, "is required"),
  topK: z.number().int().min(1).max(100).default(5),
  mode: z.enum(["hybrid", "vector", "keyword"]).default("hybrid"),
  minScore: z.number().min(0).optional(),
  filters: z.record(z.string(), z.unknown()).optional(),
});

export type KnowledgeConfig = z.infer<typeof knowledgeConfigSchema>;

export const knowledgeDefinition = {
  type: "knowledge",
  label: "Knowledge",
  icon: "BookOpen",
  category: "data",
  description: "Searches knowledge bases and returns the best matching chunks.",
  configSchema: knowledgeConfigSchema,
  fields: [
    {
      key: "knowledgeBaseIds",
      label: "Knowledge bases",
      kind: "knowledgeBases",
      needs: "Choose at least one knowledge base to search",
    },
    { key: "query", label: "Query", kind: "prompt", needs: "Write what to search for" },
    { key: "topK", label: "Results", kind: "number" },
    {
      key: "mode",
      label: "Mode",
      kind: "select",
      options: [
        { value: "hybrid", label: "Hybrid" },
        { value: "vector", label: "Vector" },
        { value: "keyword", label: "Keyword" },
      ],
    },
    {
      key: "minScore",
      label: "Minimum score",
      kind: "number",
      help: "Drop results scoring below this (hybrid: 0 to 1; vector: cosine)",
    },
    { key: "filters", label: "Filters", kind: "json", help: 'Document metadata to match, e.g. { "tags": ["policy"] }' },
  ],
  outputs: [
    { path: "results", type: "array" },
    { path: "results[].content", type: "string" },
    { path: "results[].score", type: "number" },
    { path: "results[].documentId", type: "string" },
    { path: "results[].documentName", type: "string" },
    { path: "results[].chunkIndex", type: "number" },
    { path: "totalResults", type: "number" },
    { path: "query", type: "string" },
  ],
  acceptsInput: true,
  sourceHandles: () => STANDARD_HANDLES,
  storedReferences: (config) => [{ kind: "knowledge base", value: config.knowledgeBaseIds, path: "knowledgeBaseIds" }],
  docs: {
    config: "`knowledgeBaseIds, query, topK?, mode? (hybrid/vector/keyword), minScore?, filters?`",
    output: "`results:[{content, score, documentId, documentName, chunkIndex}], totalResults, query`",
  },
} satisfies BlockDefinition<typeof knowledgeConfigSchema>;
