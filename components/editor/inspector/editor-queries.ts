"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/contract";
import { MODEL_LIST_KEY } from "@/components/prices/use-model-list";

export { useModelList } from "@/components/prices/use-model-list";

export function useModels() {
  return useQuery({
    queryKey: MODEL_LIST_KEY,
    queryFn: api.models.get,
    staleTime: 5 * 60_000,
    select: (list) => list.models,
  });
}

/** Names of environment variables and secrets, never their values. */
export function useEnvNames() {
  return useQuery({
    queryKey: ["env-names"],
    queryFn: api.envNames,
    staleTime: 60_000,
  });
}

/** Another workflow of the workspace as stored (a Workflow block's child: its start inputs). */
export function useWorkflowDocument(workflowId: string | undefined) {
  return useQuery({
    queryKey: ["workflow", workflowId],
    queryFn: () => api.workflows.get(workflowId!),
    enabled: workflowId !== undefined,
    staleTime: 30_000,
    retry: false,
  });
}
