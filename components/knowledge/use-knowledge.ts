"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { knowledgeApi } from "./knowledge-api";

export const knowledgeBasesKey = ["knowledge-bases"] as const;
export const documentsKey = (id: string) => ["knowledge-bases", id, "documents"] as const;

export function useKnowledgeBases() {
  return useQuery({ queryKey: knowledgeBasesKey, queryFn: knowledgeApi.listBases });
}

/** Documents of a base, polled every second while any of them is still pending or processing. */
export function useDocuments(id: string | null) {
  return useQuery({
    queryKey: documentsKey(id ?? ""),
    queryFn: () => knowledgeApi.listDocuments(id!),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data?.some((document) => document.status === "pending" || document.status === "processing") ? 1000 : false),
  });
}

export function useChunks(id: string, documentId: string | null) {
  return useQuery({ queryKey: ["knowledge-bases", id, "chunks", documentId], queryFn: () => knowledgeApi.listChunks(id, documentId!), enabled: documentId !== null });
}

export function useKnowledgeMutations() {
  const queryClient = useQueryClient();
  const invalidate = () => queryClient.invalidateQueries({ queryKey: knowledgeBasesKey });
  return {
    createBase: useMutation({ mutationFn: knowledgeApi.createBase, onSuccess: invalidate }),
    deleteBase: useMutation({ mutationFn: knowledgeApi.deleteBase, onSuccess: invalidate }),
    deleteDocument: useMutation({
      mutationFn: ({ id, documentId }: { id: string; documentId: string }) => knowledgeApi.deleteDocument(id, documentId),
      onSuccess: invalidate,
    }),
  };
}
