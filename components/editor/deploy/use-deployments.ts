"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, isEmptyDocumentDiff, type DeploymentInfo } from "@/contract";

export const deploymentsKey = (workflowId: string) => ["deployments", workflowId] as const;

/** A workflow's deployments, newest first, and the active one. */
export function useDeployments(workflowId: string) {
  const query = useQuery({ queryKey: deploymentsKey(workflowId), queryFn: () => api.deployments.list(workflowId) });
  const active: DeploymentInfo | undefined = query.data?.find((deployment) => deployment.active);
  return { ...query, active };
}

/**
 * Whether the saved draft differs from the active deployment, by what it does (a block moved on
 * the canvas is not a difference). Asked again after each save (`savedVersion`).
 */
export function useDraftDiff(workflowId: string, activeId: string | undefined, savedVersion: number) {
  const query = useQuery({
    queryKey: ["deployment-diff", workflowId, activeId, savedVersion],
    queryFn: () => api.deployments.diff(workflowId, activeId!, "draft"),
    enabled: activeId !== undefined,
  });
  return { ...query, differs: query.data ? !isEmptyDocumentDiff(query.data) : undefined };
}

/** Deploy and activate; both refresh the list and the diff. */
export function useDeploymentActions(workflowId: string) {
  const client = useQueryClient();
  // The chat panel says whether the workflow is deployed: a deploy in the same drawer changes that.
  const refresh = () =>
    Promise.all(
      [deploymentsKey(workflowId), ["deployment-diff", workflowId], ["workflow", workflowId, "chat"]].map((queryKey) =>
        client.invalidateQueries({ queryKey }),
      ),
    );
  const deploy = useMutation({
    mutationFn: (request: { note: string; override?: { note: string } }) => api.deployments.create(workflowId, request),
    // A deploy runs the gate's evaluation first when the workflow requires one: its result is shown beside the button.
    onSettled: () => client.invalidateQueries({ queryKey: ["evaluations", workflowId] }),
    onSuccess: refresh,
  });
  const activate = useMutation({
    mutationFn: (id: string) => api.deployments.activate(workflowId, id),
    onSuccess: refresh,
  });
  return { deploy, activate };
}
