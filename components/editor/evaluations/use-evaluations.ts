"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type DatasetCaseInput, type StartEvaluationRequest, type SuiteRequest } from "@/contract";
import { mappingQuery, type CaseFile } from "./import-columns";

/** Server data of the Evaluations drawer: datasets, suites and evaluations of one workflow. */

export const datasetsKey = (workflowId: string) => ["datasets", workflowId] as const;
export const suitesKey = (workflowId: string) => ["suites", workflowId] as const;
export const evaluationsKey = (workflowId: string) => ["evaluations", workflowId] as const;

export function useDatasets(workflowId: string) {
  return useQuery({
    queryKey: datasetsKey(workflowId),
    queryFn: async () => (await api.call("listDatasets", { query: { workflowId } })).datasets,
  });
}

export function useDataset(id: string | null) {
  return useQuery({
    queryKey: ["dataset", id],
    queryFn: () => api.call("getDataset", { params: { id: id! } }),
    enabled: id !== null,
  });
}

/** Every change of a dataset refreshes it and the list (its version and case count). */
export function useDatasetActions(workflowId: string) {
  const client = useQueryClient();
  const refresh = (id?: string) =>
    Promise.all([
      client.invalidateQueries({ queryKey: datasetsKey(workflowId) }),
      ...(id ? [client.invalidateQueries({ queryKey: ["dataset", id] })] : []),
    ]);
  return {
    create: useMutation({
      mutationFn: (name: string) => api.call("createDataset", { body: { name, workflowId } }),
      onSuccess: (dataset) => refresh(dataset.id),
    }),
    addCase: useMutation({
      mutationFn: ({ id, item }: { id: string; item: DatasetCaseInput }) =>
        api.call("addDatasetCases", { params: { id }, body: { cases: [item] } }),
      onSuccess: (dataset) => refresh(dataset.id),
    }),
    replaceCase: useMutation({
      mutationFn: ({ id, caseId, item }: { id: string; caseId: string; item: DatasetCaseInput }) =>
        api.call("replaceDatasetCase", { params: { id, caseId }, body: item }),
      onSuccess: (dataset) => refresh(dataset.id),
    }),
    removeCase: useMutation({
      mutationFn: ({ id, caseId }: { id: string; caseId: string }) =>
        api.call("deleteDatasetCase", { params: { id, caseId } }),
      onSuccess: (dataset) => refresh(dataset.id),
    }),
    importFile: useMutation({
      mutationFn: ({ id, file, mapping }: { id: string; file: CaseFile; mapping: Record<string, string> }) =>
        api.call("addDatasetCases", {
          params: { id },
          query: Object.keys(mapping).length > 0 ? { map: mappingQuery(mapping) } : {},
          init: { headers: { "content-type": file.contentType }, body: file.text },
        }),
      onSuccess: (dataset) => refresh(dataset.id),
    }),
  };
}

export function useSuites(workflowId: string) {
  return useQuery({
    queryKey: suitesKey(workflowId),
    queryFn: async () => (await api.call("listSuites", { params: { id: workflowId } })).suites,
  });
}

export function useCreateSuite(workflowId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (suite: SuiteRequest) => api.call("createSuite", { params: { id: workflowId }, body: suite }),
    onSuccess: () => client.invalidateQueries({ queryKey: suitesKey(workflowId) }),
  });
}

export function useDeleteSuite(workflowId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call("deleteSuite", { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: suitesKey(workflowId) }),
  });
}

/** The workflow's evaluations, asked again every second while one is running (its progress bar). */
export function useEvaluationList(workflowId: string) {
  return useQuery({
    queryKey: evaluationsKey(workflowId),
    queryFn: async () => (await api.call("listEvaluations", { params: { id: workflowId } })).evaluations,
    refetchInterval: (query) =>
      query.state.data?.some((evaluation) => evaluation.status === "running") ? 1000 : false,
  });
}

export function useEvaluation(id: string | null) {
  return useQuery({
    queryKey: ["evaluation", id],
    queryFn: () => api.call("getEvaluation", { params: { id: id! } }),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data?.status === "running" ? 1000 : false),
  });
}

export function useStartEvaluation(workflowId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: StartEvaluationRequest) =>
      api.call("startEvaluation", { params: { id: workflowId }, body: { ...request, wait: false }, status: 202 }),
    onSuccess: () => client.invalidateQueries({ queryKey: evaluationsKey(workflowId) }),
  });
}

export function useComparison(before: string | null, after: string | null) {
  return useQuery({
    queryKey: ["evaluation-compare", before, after],
    queryFn: () => api.call("compareEvaluations", { params: { id: before!, otherId: after! } }),
    enabled: before !== null && after !== null && before !== after,
  });
}
