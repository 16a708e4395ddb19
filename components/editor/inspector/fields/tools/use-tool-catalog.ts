"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/contract";

/** GET /api/tools: the tool types and the MCP servers this workspace may use. */
export function useToolCatalog() {
  return useQuery({ queryKey: ["tools"], queryFn: api.tools.catalog, staleTime: 60_000 });
}

/** One MCP server's tools, asked of it when the menu opens it (live, so a server that is down says so). */
export function useMcpServerTools(server: string, enabled: boolean) {
  return useQuery({
    queryKey: ["tools", "mcp", server],
    queryFn: () => api.tools.mcpServerTools(server),
    enabled,
    retry: false,
    staleTime: 30_000,
  });
}
