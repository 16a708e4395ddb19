"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { documentsPollInterval } from "./documents-poll";
import { api, type KnowledgeBaseSummary } from "@/contract";

export const knowledgeBasesKey = ["knowledge-bases"] as const;
export const documentsKey = (id: string) => ["knowledge-bases", id, "documents"] as const;

export function useKnowledgeBases() {
  return useQuery({ queryKey: knowledgeBasesKey, queryFn: api.knowledge.listBases });
}

/**
 * Documents of a base, newest first, a page at a time (`data` holds the pages shown, flattened),
 * polled every second while any of them is still pending or processing, while the list has fewer
 * documents than the base counts (an upload the list has not seen yet; only once every page is
 * shown, else more pages would always be "missing"), and every few seconds after a failed request,
 * so a busy server never leaves the list stale.
 */
export function useDocuments(id: string | null, expectedCount = 0) {
  return useInfiniteQuery({
    queryKey: documentsKey(id ?? ""),
    queryFn: ({ pageParam }) => api.knowledge.pageDocuments(id!, { cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    select: (data) => data.pages.flatMap((page) => page.documents),
    enabled: id !== null,
    refetchInterval: (query) => {
      const pages = query.state.data?.pages;
      const complete = pages?.at(-1)?.nextCursor === null;
      return documentsPollInterval(
        pages?.flatMap((page) => page.documents),
        query.state.status === "error",
        complete ? expectedCount : 0,
      );
    },
  });
}

/** A document's chunks in order, a page at a time. */
export function useChunks(id: string, documentId: string | null) {
  return useInfiniteQuery({
    queryKey: ["knowledge-bases", id, "chunks", documentId],
    queryFn: ({ pageParam }) => api.knowledge.pageChunks(id, documentId!, { cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    select: (data) => data.pages.flatMap((page) => page.chunks),
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
      mutationFn: ({ id, documentId }: { id: string; documentId: string }) =>
        api.knowledge.deleteDocument(id, documentId),
      onSuccess: invalidate,
    }),
  };
}
