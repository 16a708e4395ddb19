"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { entryBlockOf } from "@/blocks";
import { api, type CreateWebhookRequest } from "@/contract";

const webhooksKey = (workflowId: string) => ["webhooks", workflowId] as const;

/** A workflow's hooks, and creating and deleting them (the list refreshes after either). */
export function useWebhooks(workflowId: string) {
  const queryClient = useQueryClient();
  const hooks = useQuery({ queryKey: webhooksKey(workflowId), queryFn: () => api.webhooks.list(workflowId) });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: webhooksKey(workflowId) });
  const create = useMutation({
    mutationFn: (request: CreateWebhookRequest) => api.webhooks.create(workflowId, request),
    onSettled: invalidate,
  });
  const remove = useMutation({ mutationFn: (id: string) => api.webhooks.remove(id), onSettled: invalidate });
  return { hooks, create, remove };
}

/** How often the deliveries are asked again: a delivery shows up within this while the panel is open. */
export const DELIVERIES_POLL_MS = 3_000;

export function useWebhookDeliveries(webhookId: string) {
  return useQuery({
    queryKey: ["webhook-deliveries", webhookId],
    queryFn: () => api.webhooks.deliveries(webhookId),
    refetchInterval: DELIVERIES_POLL_MS,
  });
}

/** The workflow's start inputs as saved, for the example body. */
export function useStartInputs(workflowId: string): Array<{ name: string; type?: string }> {
  const workflow = useQuery({
    queryKey: ["workflow", workflowId],
    queryFn: () => api.workflows.get(workflowId),
    staleTime: Infinity,
    retry: false,
  });
  const start = workflow.data ? entryBlockOf(workflow.data.blocks) : undefined;
  const inputs = (start?.config as { inputs?: Array<{ name: string; type?: string }> } | undefined)?.inputs;
  return Array.isArray(inputs) ? inputs : [];
}

const noSubscription = () => () => {};

/** This page's origin in the browser ("" while rendered on the server), to show a hook's full URL. */
export function useOrigin(): string {
  return useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => "",
  );
}
