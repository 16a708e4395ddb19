import { parseToolEntry, routedNamesOfEntry, toolNamesOfEntry, type WorkflowBlock } from "@/contract";
import type { HandleSpec } from "../types";

/**
 * Routing on tool outcomes (the MCP-bridge seed's reroute rules `tool:<name>:success` and
 * `tool:<name>:error`). A tool entry of an agent that says `routeOnOutcome` gives the agent one
 * handle per outcome of each of its tools; after the agent finishes, the handle of the outcome of
 * the last call of each such tool is taken, besides `out`. A tool the agent never called takes
 * neither.
 *
 * `routeOnOutcome: true` routes on the entry's tool: its `name`, an `mcp` entry's `params.tools`,
 * or else its type. `routeOnOutcome: ["a", "b"]` names the tools, for entries whose tool names
 * are only known at run time (a whole MCP server, a workflow tool without a `name`). The entry
 * schema (contract/tool-entry.ts) refuses `true` on such an entry at save time.
 */

export type ToolOutcome = "success" | "error";

export function toolOutcomeHandle(toolName: string, outcome: ToolOutcome): string {
  return `tool:${toolName}:${outcome}`;
}

/** The tool names one entry routes on when its switch in the inspector is on (the names it lists, or what `true` gives); null when only known at run time. */
export function outcomeNamesOf(entry: unknown): string[] | null {
  const parsed = parseToolEntry(entry);
  if (!parsed) return null;
  return Array.isArray(parsed.routeOnOutcome) ? parsed.routeOnOutcome : toolNamesOfEntry(parsed);
}

/** The tool names an agent's `tools` config routes on, in order, each once (a draft's entries that do not parse route on nothing). */
export function routedToolNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  const names: string[] = [];
  for (const entry of tools) {
    const parsed = parseToolEntry(entry);
    for (const name of (parsed && routedNamesOfEntry(parsed)) ?? [])
      if (name && !names.includes(name)) names.push(name);
  }
  return names;
}

/** One handle per outcome of each routed tool, drawn like branches (success) and errors (error). */
export function toolOutcomeHandles(block: WorkflowBlock): HandleSpec[] {
  return routedToolNames(block.config.tools).flatMap((name): HandleSpec[] => [
    { id: toolOutcomeHandle(name, "success"), label: `${name} ✓`, variant: "branch" },
    { id: toolOutcomeHandle(name, "error"), label: `${name} ✗`, variant: "error" },
  ]);
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** The handles a successful agent output leaves by: `out`, and the outcome of the last call of each routed tool. */
export function takenToolHandles(block: WorkflowBlock, output: Readonly<Record<string, unknown>>): string[] {
  const taken = ["out"];
  // The agent's own `toolOutcomes` output (see toolOutcomesByName): one definition of "the last call".
  const outcomes = record(output.toolOutcomes) ?? {};
  for (const name of routedToolNames(block.config.tools)) {
    const outcome = outcomes[name];
    if (outcome === "success" || outcome === "error") taken.push(toolOutcomeHandle(name, outcome));
  }
  return taken;
}

/**
 * The agent's `toolOutcomes` output: for every tool it had, the outcome of its last call (the last
 * issued, as the tracker lists them; a call that recorded an `error` failed), null when it made none.
 */
export function toolOutcomesByName(
  toolNames: ReadonlyArray<string>,
  calls: ReadonlyArray<{ name: string; error?: unknown }>,
): Record<string, ToolOutcome | null> {
  const outcomes: Record<string, ToolOutcome | null> = {};
  for (const name of toolNames) outcomes[name] = null;
  for (const call of calls) outcomes[call.name] = call.error ? "error" : "success";
  return outcomes;
}
