"use client";

import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/workflows/api-client";

/** A model as GET /api/models lists it (the providers' catalog). */
export interface ModelOption {
  id: string;
  provider?: string;
  label: string;
  description?: string;
  /** US dollars per million tokens. */
  prices: { input: number; output: number; cachedInput?: number } | null;
  unpriced: boolean;
  offline?: boolean;
}

export function useModels() {
  return useQuery({
    queryKey: ["models"],
    queryFn: () => apiFetch<{ models: ModelOption[] }>("/api/models").then((body) => body.models),
    staleTime: 5 * 60_000,
  });
}

/** Names of environment variables and secrets, never their values. */
export function useEnvNames() {
  return useQuery({
    queryKey: ["env-names"],
    queryFn: () => apiFetch<{ names: string[] }>("/api/env-names").then((body) => body.names),
    staleTime: 60_000,
  });
}
