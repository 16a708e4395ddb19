"use client";

import { useState } from "react";
import { useWorkflowList } from "@/components/workflows/use-workflows";
import { useEditorStore } from "../../../store";
import { smallButtonClass } from "../field-props";
import {
  builtinEntry,
  functionEntry,
  MCP_TYPE,
  RUN_FUNCTION_TYPE,
  WORKFLOW_TYPE,
  workflowEntry,
  type ToolEntryFields,
} from "./tool-entries";
import { McpServerMenu } from "./mcp-server-menu";
import { useToolCatalog } from "./use-tool-catalog";

/** Tool types the menu offers in their own groups rather than as built-ins. */
const GROUPED_TYPES = new Set([MCP_TYPE, WORKFLOW_TYPE, RUN_FUNCTION_TYPE]);

const groupClass = "space-y-1 border-t border-slate-100 pt-1.5 first:border-t-0 first:pt-0";
const headingClass = "text-[11px] font-semibold uppercase tracking-wide text-slate-500";
const optionClass = "block w-full rounded px-1.5 py-1 text-left text-xs hover:bg-indigo-50";

/**
 * "Add tool": the built-in tools (GET /api/tools), each MCP server's tools (asked of the server
 * when opened), the workspace's other workflows, and a new custom function.
 */
export function AddToolMenu({ tools, onAdd }: { tools: unknown[]; onAdd: (entry: ToolEntryFields) => void }) {
  const [open, setOpen] = useState(false);
  const catalog = useToolCatalog();
  const workflows = useWorkflowList();
  const editing = useEditorStore((state) => state.workflowId);
  const add = (entry: ToolEntryFields) => {
    onAdd(entry);
    setOpen(false);
  };
  if (!open) {
    return (
      <button type="button" className={smallButtonClass} onClick={() => setOpen(true)} data-testid="tool-add">
        Add tool
      </button>
    );
  }
  const builtins = (catalog.data?.tools ?? []).filter((info) => !GROUPED_TYPES.has(info.type));
  const otherWorkflows = (workflows.data ?? []).filter((workflow) => workflow.id !== editing);
  return (
    <div
      className="space-y-1.5 rounded border border-slate-300 bg-white p-2 shadow-sm"
      role="menu"
      aria-label="Add tool"
      data-testid="tool-add-menu"
    >
      <div className="flex items-center justify-between">
        <span className="text-xs font-medium text-slate-700">Add a tool</span>
        <button type="button" className={smallButtonClass} onClick={() => setOpen(false)}>
          Close
        </button>
      </div>
      <section className={groupClass} aria-label="Built-in tools">
        <h4 className={headingClass}>Built-in</h4>
        {catalog.isPending && <p className="text-xs text-slate-500">Loading tools…</p>}
        {catalog.isError && (
          <p role="alert" className="text-xs text-red-600">
            Could not list tools: {catalog.error.message}
          </p>
        )}
        {builtins.map((info) => (
          <button
            key={info.type}
            type="button"
            role="menuitem"
            className={optionClass}
            onClick={() => add(builtinEntry(info.type))}
            data-testid={`tool-add-builtin-${info.type}`}
          >
            <span className="font-medium">{info.label}</span> <span className="text-slate-500">{info.description}</span>
          </button>
        ))}
      </section>
      <section className={groupClass} aria-label="MCP servers">
        <h4 className={headingClass}>MCP servers</h4>
        {catalog.data?.mcpError && (
          <p role="alert" className="text-xs text-red-600">
            The MCP server list cannot be read: {catalog.data.mcpError}
          </p>
        )}
        {catalog.data && catalog.data.mcpServers.length === 0 && !catalog.data.mcpError && (
          <p className="text-xs text-slate-500">None configured (the operator lists them in TRELLIS_MCP_SERVERS).</p>
        )}
        {catalog.data?.mcpServers.map((server) => (
          <McpServerMenu key={server.name} server={server} onAdd={add} />
        ))}
      </section>
      <section className={groupClass} aria-label="Workflows">
        <h4 className={headingClass}>Workflows</h4>
        {workflows.isError && (
          <p role="alert" className="text-xs text-red-600">
            Could not list workflows: {workflows.error.message}
          </p>
        )}
        {workflows.data && otherWorkflows.length === 0 && (
          <p className="text-xs text-slate-500">No other workflow in this workspace.</p>
        )}
        {otherWorkflows.map((workflow) => (
          <button
            key={workflow.id}
            type="button"
            role="menuitem"
            className={optionClass}
            onClick={() => add(workflowEntry(tools, workflow))}
            data-testid={`tool-add-workflow-${workflow.id}`}
          >
            <span className="font-medium">{workflow.name}</span>
            {workflow.description && <span className="text-slate-500"> {workflow.description}</span>}
          </button>
        ))}
      </section>
      <section className={groupClass} aria-label="Custom function">
        <h4 className={headingClass}>Custom</h4>
        <button
          type="button"
          role="menuitem"
          className={optionClass}
          onClick={() => add(functionEntry(tools))}
          data-testid="tool-add-function"
        >
          <span className="font-medium">Custom function</span>{" "}
          <span className="text-slate-500">JavaScript you write, with the parameters you define</span>
        </button>
      </section>
    </div>
  );
}
