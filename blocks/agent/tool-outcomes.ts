import type { z } from "zod";
import type { WorkflowBlock } from "@/contract";
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
 * are only known at run time (a whole MCP server, a workflow tool without a `name`).
 */

export type ToolOutcome = "success" | "error";

export function toolOutcomeHandle(toolName: string, outcome: ToolOutcome): string {
  return `tool:${toolName}:${outcome}`;
}

function record(entry: unknown): Record<string, unknown> | null {
  return typeof entry === "object" && entry !== null && !Array.isArray(entry) ? (entry as Record<string, unknown>) : null;
}

function stringList(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((item) => typeof item === "string") ? (value as string[]) : null;
}

/** The tool names one entry routes on; null when it says `routeOnOutcome: true` but its names cannot be known before it runs. */
function namesOfEntry(entry: Record<string, unknown>): string[] | null {
  const listed = stringList(entry.routeOnOutcome);
  if (listed) return listed;
  if (entry.routeOnOutcome !== true) return [];
  if (typeof entry.name === "string" && entry.name) return [entry.name];
  const type = typeof entry.type === "string" ? entry.type : typeof entry.id === "string" ? entry.id : null;
  if (type === "mcp") return stringList(record(entry.params)?.tools);
  if (type === "workflow" || !type) return null;
  return [type];
}

/** The tool names one entry routes on when its switch in the inspector is on (the names it lists, or what `true` gives); null when only known at run time. */
export function outcomeNamesOf(entry: unknown): string[] | null {
  const fields = typeof entry === "string" && entry.trim() ? { type: entry.trim() } : record(entry);
  if (!fields) return null;
  return stringList(fields.routeOnOutcome) ?? namesOfEntry({ ...fields, routeOnOutcome: true });
}

/** The tool names an agent's `tools` config routes on, in order, each once. */
export function routedToolNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  const names: string[] = [];
  for (const entry of tools) {
    const fields = record(entry);
    for (const name of (fields && namesOfEntry(fields)) ?? []) if (name && !names.includes(name)) names.push(name);
  }
  return names;
}

/** Save-time check of the `tools` config: every entry that routes on its outcomes must say which tools. */
export function checkRoutedTools(tools: unknown[], context: z.core.$RefinementCtx<unknown[]>): void {
  tools.forEach((entry, index) => {
    const fields = record(entry);
    if (!fields || fields.routeOnOutcome === undefined || fields.routeOnOutcome === false) return;
    const path = [index, "routeOnOutcome"];
    if (fields.routeOnOutcome !== true && !stringList(fields.routeOnOutcome)) {
      context.addIssue({ code: "custom", path, message: "must be true or a list of tool names" });
    } else if (namesOfEntry(fields) === null) {
      context.addIssue({
        code: "custom",
        path,
        message: 'this entry\'s tool names are only known when it runs: give it a "name" (or params.tools) or list them, as routeOnOutcome: ["tool_name"]',
      });
    }
  });
}

/** One handle per outcome of each routed tool, drawn like branches (success) and errors (error). */
export function toolOutcomeHandles(block: WorkflowBlock): HandleSpec[] {
  return routedToolNames(block.config.tools).flatMap((name): HandleSpec[] => [
    { id: toolOutcomeHandle(name, "success"), label: `${name} ✓`, variant: "branch" },
    { id: toolOutcomeHandle(name, "error"), label: `${name} ✗`, variant: "error" },
  ]);
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
