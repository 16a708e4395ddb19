"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api, type CreateScheduleRequest } from "@/contract";

const schedulesKey = (workflowId: string) => ["schedules", workflowId] as const;

/** A workflow's schedules, fetched again every few seconds so new fires and the next times stay current. */
export function useSchedules(workflowId: string) {
  return useQuery({
    queryKey: schedulesKey(workflowId),
    queryFn: () => api.schedules.list(workflowId),
    refetchInterval: 5_000,
  });
}

/** Create, pause/resume and delete, each refreshing the list. */
export function useScheduleChanges(workflowId: string) {
  const queryClient = useQueryClient();
  const onSettled = () => queryClient.invalidateQueries({ queryKey: schedulesKey(workflowId) });
  return {
    create: useMutation({
      mutationFn: (request: CreateScheduleRequest) => api.schedules.create(workflowId, request),
      onSettled,
    }),
    setPaused: useMutation({
      mutationFn: ({ id, paused }: { id: string; paused: boolean }) => api.schedules.setPaused(id, paused),
      onSettled,
    }),
    remove: useMutation({ mutationFn: (id: string) => api.schedules.remove(id), onSettled }),
  };
}

/** `value`, once it has stopped changing for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The next five fire times of the expression being typed, from the server (the same check create
 * makes, so the form shows the very error create would answer). Asked 250 ms after typing stops.
 */
export function useSchedulePreview(cron: string, timezone: string) {
  const settled = useSettled({ cron: cron.trim(), timezone }, 250);
  const query = useQuery({
    queryKey: ["schedule-preview", settled.cron, settled.timezone],
    queryFn: () => api.schedules.preview(settled),
    enabled: settled.cron !== "",
    retry: false,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
  const typing = settled.cron !== cron.trim() || settled.timezone !== timezone;
  return { ...query, typing, empty: cron.trim() === "" };
}
