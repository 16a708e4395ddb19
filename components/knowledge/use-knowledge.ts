"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { documentsPollInterval } from "./documents-poll";
import { api, type KnowledgeBaseSummary } from "@/contract";

export const knowledgeBasesKey = ["knowledge-bases"] as const;
export const documentsKey = (id: string) => ["knowledge-bases", id, "documents"] as const;

export function useKnowledgeBases() {
  return useQuery({ queryKey: knowledgeBasesKey, queryFn: api.knowledge.listBases });
}

/**
 * Documents of a base, polled every second while any of them is still pending or processing,
 * while the list has fewer documents than the base counts (an upload the list has not seen yet),
 * and every few seconds after a failed request, so a busy server never leaves the list stale.
 */
export function useDocuments(id: string | null, expectedCount = 0) {
  return useQuery({
    queryKey: documentsKey(id ?? ""),
    queryFn: () => api.knowledge.listDocuments(id!),
    enabled: id !== null,
    refetchInterval: (query) => documentsPollInterval(query.state.data, query.state.status === "error", expectedCount),
  });
}

export function useChunks(id: string, documentId: string | null) {
  return useQuery({
    queryKey: ["knowledge-bases", id, "chunks", documentId],
    queryFn: () => api.knowledge.listChunks(id, documentId!),
    enabled: documentId !== null,
  });
}

export function useKnowledgeMutations() {
  const queryClient = useQueryClient();
  const invalidate = () => queryClient.invalidateQueries({ queryKey: knowledgeBasesKey });
  return {
    createBase: useMutation({
      mutationFn: api.knowledge.createBase,
      // Show the new base at once, even if a list request started before it was created returns late.
      onSuccess: (created) => {
        queryClient.setQueryData<KnowledgeBaseSummary[]>(knowledgeBasesKey, (old) => [
          { ...created, documentCount: 0, chunkCount: 0 },
          ...(old ?? []).filter((base) => base.id !== created.id),
        ]);
        void invalidate();
      },
    }),
    deleteBase: useMutation({ mutationFn: api.knowledge.deleteBase, onSuccess: invalidate }),
    deleteDocument: useMutation({
      mutationFn: ({ id, documentId }: { id: string; documentId: string }) => api.knowledge.deleteDocument(id, documentId),
      onSuccess: invalidate,
    }),
  };
}
