"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/contract";

/** The model list's query key: Settings › Prices invalidates it when a price changes. */
export const MODEL_LIST_KEY = ["models"] as const;

/**
 * The model list priced for the workspace, and the price catalog's version and date. Read again
 * when the tab is back in focus: a key set on Settings › Model providers in another tab (where the
 * picker's "no key" links open) clears the editor's marks and its list of what to fix.
 */
export function useModelList() {
  return useQuery({
    queryKey: MODEL_LIST_KEY,
    queryFn: api.models.get,
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: "always",
  });
}
