"use client";

import { useState } from "react";
import type { McpServerSummary } from "@/contract";
import { smallButtonClass } from "../field-props";
import { mcpEntry, mcpServerEntry, type ToolEntryFields } from "./tool-entries";
import { useMcpServerTools } from "./use-tool-catalog";

/**
 * One MCP server in the "Add tool" menu. Its tools are asked of the server when opened; a server
 * that is down shows why, inline, and can be asked again.
 */
export function McpServerMenu({
  server,
  onAdd,
}: {
  server: McpServerSummary;
  onAdd: (entry: ToolEntryFields) => void;
}) {
  const [open, setOpen] = useState(false);
  const listing = useMcpServerTools(server.name, open);
  return (
    <div className="rounded border border-slate-200" data-testid={`tool-add-mcp-${server.name}`}>
      <button
        type="button"
        className="flex w-full items-center justify-between px-1.5 py-1 text-left text-xs hover:bg-slate-50"
        onClick={() => setOpen(!open)}
        aria-expanded={open}
      >
        <span>
          <span className="font-medium">{server.name}</span>{" "}
          <span className="text-slate-500">
            ({server.transport}: {server.target})
          </span>
        </span>
        <span aria-hidden>{open ? "▾" : "▸"}</span>
      </button>
      {open && (
        <div className="space-y-1 border-t border-slate-100 p-1.5">
          {listing.isPending && <p className="text-xs text-slate-500">Asking the server for its tools…</p>}
          {listing.isError && (
            <p role="alert" className="text-xs text-red-600" data-testid={`mcp-error-${server.name}`}>
              {listing.error.message}{" "}
              <button type="button" className={smallButtonClass} onClick={() => void listing.refetch()}>
                Retry
              </button>
            </p>
          )}
          {listing.data && (
            <>
              <button
                type="button"
                role="menuitem"
                className="block w-full rounded px-1.5 py-1 text-left text-xs hover:bg-indigo-50"
                onClick={() => onAdd(mcpServerEntry(server.name))}
              >
                <span className="font-medium">All its tools</span>{" "}
                <span className="text-slate-500">(whatever it lists when the agent runs)</span>
              </button>
              {listing.data.tools.length === 0 && <p className="text-xs text-slate-500">The server lists no tools.</p>}
              {listing.data.tools.map((tool) => (
                <button
                  key={tool.name}
                  type="button"
                  role="menuitem"
                  className="block w-full rounded px-1.5 py-1 text-left text-xs hover:bg-indigo-50"
                  onClick={() => onAdd(mcpEntry(server.name, tool.name))}
                  data-testid={`tool-add-mcp-${server.name}-${tool.name}`}
                >
                  <span className="font-mono font-medium">{tool.name}</span>{" "}
                  <span className="text-slate-500">{tool.description}</span>
                </button>
              ))}
            </>
          )}
        </div>
      )}
    </div>
  );
}
