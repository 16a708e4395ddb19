"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/contract";

export function useModels() {
  return useQuery({
    queryKey: ["models"],
    queryFn: api.models.list,
    staleTime: 5 * 60_000,
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
