"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api, type WorkflowEstimate } from "@/contract";
import { useEditorStore } from "@/components/editor/store";

/** How long typing must pause before the estimate is asked again. */
const ESTIMATE_DEBOUNCE_MS = 400;

function useDebounced<Value>(value: Value, delayMs: number): Value {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/**
 * The cost estimate of the saved draft: with the input typed in the Run form while it is open,
 * else with the inputs unknown. Asked again after each save and when typing pauses; never calls
 * a model (POST /api/workflows/:id/estimate).
 */
export function useRunEstimate(): { estimate: WorkflowEstimate | undefined; error: string | null; pending: boolean } {
  const workflowId = useEditorStore((state) => state.workflowId);
  const version = useEditorStore((state) => state.save.version);
  const input = useDebounced(
    useEditorStore((state) => state.estimateInput),
    ESTIMATE_DEBOUNCE_MS,
  );
  const query = useQuery({
    queryKey: ["estimate", workflowId, version, input === null ? null : JSON.stringify(input)],
    queryFn: () => api.workflows.estimate(workflowId, input === null ? {} : { input }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: false,
  });
  return {
    estimate: query.data,
    error: query.error ? (query.error as Error).message : null,
    pending: query.isFetching,
  };
}
