"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { documentsPollInterval } from "./documents-poll";
import { knowledgeApi, type KnowledgeBaseSummary } from "./knowledge-api";

export const knowledgeBasesKey = ["knowledge-bases"] as const;
export const documentsKey = (id: string) => ["knowledge-bases", id, "documents"] as const;

export function useKnowledgeBases() {
  return useQuery({ queryKey: knowledgeBasesKey, queryFn: knowledgeApi.listBases });
}

/**
 * Documents of a base, polled every second while any of them is still pending or processing,
 * while the list has fewer documents than the base counts (an upload the list has not seen yet),
 * and every few seconds after a failed request, so a busy server never leaves the list stale.
 */
export function useDocuments(id: string | null, expectedCount = 0) {
  return useQuery({
    queryKey: documentsKey(id ?? ""),
    queryFn: () => knowledgeApi.listDocuments(id!),
    enabled: id !== null,
    refetchInterval: (query) => documentsPollInterval(query.state.data, query.state.status === "error", expectedCount),
  });
}

export function useChunks(id: string, documentId: string | null) {
  return useQuery({ queryKey: ["knowledge-bases", id, "chunks", documentId], queryFn: () => knowledgeApi.listChunks(id, documentId!), enabled: documentId !== null });
}

export function useKnowledgeMutations() {
  const queryClient = useQueryClient();
  const invalidate = () => queryClient.invalidateQueries({ queryKey: knowledgeBasesKey });
  return {
    createBase: useMutation({
      mutationFn: knowledgeApi.createBase,
      // Show the new base at once, even if a list request started before it was created returns late.
      onSuccess: (created) => {
        queryClient.setQueryData<KnowledgeBaseSummary[]>(knowledgeBasesKey, (old) => [
          { ...created, documentCount: 0, chunkCount: 0 },
          ...(old ?? []).filter((base) => base.id !== created.id),
        ]);
        void invalidate();
      },
    }),
    deleteBase: useMutation({ mutationFn: knowledgeApi.deleteBase, onSuccess: invalidate }),
    deleteDocument: useMutation({
      mutationFn: ({ id, documentId }: { id: string; documentId: string }) => knowledgeApi.deleteDocument(id, documentId),
      onSuccess: invalidate,
    }),
  };
}
