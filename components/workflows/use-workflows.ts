"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ImportRequest, type WorkflowDocumentInput, api } from "@/contract";
import { toDocument } from "@/components/workflows/new-workflow";

export const workflowsKey = ["workflows"] as const;

export function useWorkflowList() {
  return useQuery({ queryKey: workflowsKey, queryFn: api.workflows.list });
}

export function useWorkflowMutations() {
  const queryClient = useQueryClient();
  const invalidate = () => queryClient.invalidateQueries({ queryKey: workflowsKey });
  const create = useMutation({
    mutationFn: (document: WorkflowDocumentInput) => api.workflows.create(document),
    onSuccess: invalidate,
  });
  const rename = useMutation({
    mutationFn: async ({ id, name }: { id: string; name: string }) => {
      const current = await api.workflows.get(id);
      return api.workflows.update(id, { ...toDocument(current), name, version: current.version });
    },
    onSuccess: invalidate,
  });
  const duplicate = useMutation({
    mutationFn: async (id: string) => {
      const current = await api.workflows.get(id);
      return api.workflows.create({ ...toDocument(current), name: `${current.name} (copy)` });
    },
    onSuccess: invalidate,
  });
  const remove = useMutation({ mutationFn: (id: string) => api.workflows.remove(id), onSuccess: invalidate });
  const importFile = useMutation({
    mutationFn: (request: ImportRequest) => api.workflows.import(request),
    onSuccess: invalidate,
  });
  return { create, rename, duplicate, remove, importFile };
}

export async function downloadWorkflow(id: string): Promise<void> {
  const workflow = await api.workflows.get(id);
  const blob = new Blob([JSON.stringify(toDocument(workflow), null, 2)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = `${workflow.name.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-|-$/g, "") || "workflow"}.trellis.json`;
  link.click();
  URL.revokeObjectURL(url);
}
