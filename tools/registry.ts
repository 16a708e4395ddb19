import { BlockExecutionError } from "@/executor/errors";
import type { ToolContext, ToolEntry, ToolInfo, ToolProvider, ToolSet } from "./types";

/** The tool providers, by type. Adding a tool is one folder and one entry in the runtime's list. */
export interface ToolRegistry {
  /** Every tool type on offer, for the inspector. */
  list(): ToolInfo[];
  /** AI SDK tools for an agent's `tools` config. Unknown types and duplicate names are errors. */
  resolve(entries: readonly unknown[] | undefined, context: ToolContext): Promise<ToolSet>;
}

/** `"calculator"` and `{ type: "calculator", params }` (or `id` instead of `type`) are both accepted. */
export function normalizeToolEntry(entry: unknown, index: number): ToolEntry {
  if (typeof entry === "string" && entry.trim()) return { type: entry.trim(), raw: entry };
  if (typeof entry === "object" && entry !== null && !Array.isArray(entry)) {
    const record = entry as Record<string, unknown>;
    const type = typeof record.type === "string" ? record.type : typeof record.id === "string" ? record.id : undefined;
    if (type) {
      const normalized: ToolEntry = { type, raw: entry };
      if (typeof record.name === "string" && record.name) normalized.name = record.name;
      if (typeof record.params === "object" && record.params !== null) normalized.params = record.params as Record<string, unknown>;
      return normalized;
    }
  }
  throw new BlockExecutionError(`tools[${index}] must be a tool type such as "calculator" or an object with a "type"`, { code: "invalid_tool" });
}

export function createToolRegistry(providers: readonly ToolProvider[]): ToolRegistry {
  const byType = new Map<string, ToolProvider>();
  for (const provider of providers) {
    for (const info of provider.tools) {
      if (byType.has(info.type)) throw new Error(`Tool type "${info.type}" is registered twice`);
      byType.set(info.type, provider);
    }
  }
  return {
    list: () => providers.flatMap((provider) => provider.tools),
    async resolve(entries, context) {
      const groups = new Map<ToolProvider, ToolEntry[]>();
      (entries ?? []).forEach((raw, index) => {
        const entry = normalizeToolEntry(raw, index);
        const provider = byType.get(entry.type);
        if (!provider) {
          const known = [...byType.keys()].join(", ") || "none";
          throw new BlockExecutionError(`tools[${index}]: unknown tool type "${entry.type}" (available: ${known})`, { code: "invalid_tool" });
        }
        groups.set(provider, [...(groups.get(provider) ?? []), entry]);
      });
      const toolSet: ToolSet = {};
      for (const [provider, group] of groups) {
        const created = await provider.createTools(group, context);
        for (const [name, definition] of Object.entries(created)) {
          if (name in toolSet) throw new BlockExecutionError(`Two tools are named "${name}"; give one a different "name"`, { code: "invalid_tool" });
          toolSet[name] = definition;
        }
      }
      return toolSet;
    },
  };
}
