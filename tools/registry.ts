import { BlockExecutionError, TrellisError, type BlockMemo } from "@/core";
import { simulatedTool } from "./simulated-tool";
import type { ToolApprovalGate, ToolContext, ToolEntry, ToolInfo, ToolProvider, ToolSet } from "./types";

/** The tool providers, by type. Adding a tool is one folder and one entry in the runtime's list. */
export interface ToolRegistry {
  /** Every tool type on offer, for the inspector. */
  list(): ToolInfo[];
  /** AI SDK tools for an agent's `tools` config, as its schema parsed it. Types this registry lacks and duplicate names are errors. */
  resolve(entries: readonly ToolEntry[] | undefined, context: ToolContext): Promise<ToolSet>;
}

export interface ToolRegistryOptions {
  /** Pauses calls of tools whose entry says `requireApproval: true`. Without it such entries are refused. */
  approvals?: ToolApprovalGate;
}

/** A person said no: the model gets this as the tool's error and may carry on without it. */
export class ToolDeniedError extends TrellisError {
  constructor(toolName: string, reason?: string) {
    super("tool_denied", `The call of "${toolName}" was denied by a person${reason ? `: ${reason}` : ""}`);
  }
}

function gated(
  name: string,
  definition: ToolSet[string],
  context: ToolContext,
  gate: ToolApprovalGate,
): ToolSet[string] {
  const execute = definition.execute;
  if (!execute) return definition;
  return {
    ...definition,
    execute: async (input: unknown, options: { toolCallId: string }) => {
      const request = {
        runId: context.runId,
        blockId: context.blockId,
        spanId: context.toolSpan(options.toolCallId)?.id ?? null,
        toolCallId: options.toolCallId,
        toolName: name,
        arguments: input,
      };
      const decision = await gate(request, context.signal);
      if (!decision.approved) throw new ToolDeniedError(name, decision.reason);
      return execute(input as never, options as never);
    },
  } as ToolSet[string];
}

/**
 * A tool whose result is kept in the block's memo, by the call's id: when a resumed attempt at
 * the block replays the model answer that asked for it, the tool is not run again (its side
 * effect happened once) and is not asked about again.
 */
function remembered(toolName: string, definition: ToolSet[string], memo: BlockMemo): ToolSet[string] {
  const execute = definition.execute;
  if (!execute) return definition;
  return {
    ...definition,
    execute: async (input: unknown, options: { toolCallId: string }) => {
      const key = `tool:${options.toolCallId}`;
      const kept = memo.recall(key) as { result: unknown } | undefined;
      if (kept) return kept.result;
      // A replay never acts: a tool call the replayed run did not make (or whose result was not JSON) is refused, not run.
      if (memo.replaying) {
        throw new TrellisError(
          "not_recorded",
          `Not recorded: the replayed run has no result for this call of tool '${toolName}', so it was not run. Run the workflow to call it.`,
        );
      }
      const result: unknown = await execute(input as never, options as never);
      let stored: unknown;
      try {
        stored = JSON.parse(JSON.stringify({ result }));
      } catch {
        return result; // not JSON: it runs again if the block does
      }
      await memo.remember(key, stored);
      return result;
    },
  } as ToolSet[string];
}

export function createToolRegistry(
  providers: readonly ToolProvider[],
  options: ToolRegistryOptions = {},
): ToolRegistry {
  const byType = new Map<string, ToolProvider>();
  for (const provider of providers) {
    for (const info of provider.tools) {
      if (byType.has(info.type)) throw new Error(`Tool type "${info.type}" is registered twice`);
      byType.set(info.type, provider);
    }
  }
  const reservedNames: ReadonlySet<string> = new Set(byType.keys());
  return {
    list: () =>
      providers.flatMap((provider) =>
        provider.sideEffects ? provider.tools.map((info) => ({ ...info, sideEffects: true })) : provider.tools,
      ),
    async resolve(entries, context) {
      // Entries needing approval are created apart from the others, so their tools can be gated.
      const groups = new Map<
        string,
        { provider: ToolProvider; gated: boolean; types: Set<string>; entries: ToolEntry[] }
      >();
      (entries ?? []).forEach((entry, index) => {
        const provider = byType.get(entry.type);
        if (!provider) {
          const known = [...byType.keys()].join(", ") || "none";
          throw new BlockExecutionError(`tools[${index}]: unknown tool type "${entry.type}" (available: ${known})`, {
            code: "invalid_tool",
          });
        }
        if (entry.directOutput && !provider.directOutput) {
          throw new BlockExecutionError(
            `tools[${index}] (${entry.type}) cannot answer for the agent: directOutput is for workflow tools`,
            {
              code: "invalid_tool",
            },
          );
        }
        if (entry.requireApproval && !options.approvals) {
          throw new BlockExecutionError(
            `tools[${index}] (${entry.type}) requires approval, but this run has no way to ask a person`,
            { code: "invalid_tool" },
          );
        }
        const key = `${providers.indexOf(provider)}:${entry.requireApproval ? "gated" : "open"}`;
        const group = groups.get(key) ?? {
          provider,
          gated: entry.requireApproval === true,
          types: new Set<string>(),
          entries: [],
        };
        group.types.add(entry.type);
        group.entries.push(entry);
        groups.set(key, group);
      });
      const toolSet: ToolSet = {};
      const sourceOf = new Map<string, string>();
      for (const group of groups.values()) {
        const readOnly = new Set<string>();
        const providerContext: ToolContext = {
          ...context,
          reservedNames,
          markReadOnly: (name) => void readOnly.add(name),
        };
        const created = await group.provider.createTools(group.entries, providerContext);
        const source = [...group.types].map((type) => `"${type}"`).join("/");
        for (const [name, definition] of Object.entries(created)) {
          const owner = byType.get(name);
          if (owner && owner !== group.provider) {
            throw new BlockExecutionError(
              `A ${source} tool is named "${name}", the name of the built-in "${name}" tool; rename or leave out one of them`,
              {
                code: "invalid_tool",
              },
            );
          }
          if (name in toolSet) {
            throw new BlockExecutionError(
              `Two tools are named "${name}" (from ${sourceOf.get(name)} and ${source} entries); give one a different "name"`,
              {
                code: "invalid_tool",
              },
            );
          }
          sourceOf.set(name, source);
          // A test run answers side-effecting calls from the block's samples; the approval gate (if any) still asks first.
          const simulation = group.provider.sideEffects && !readOnly.has(name) ? context.simulation : undefined;
          const effective = simulation ? simulatedTool(name, definition, context, simulation) : definition;
          const tool =
            group.gated && options.approvals ? gated(name, effective, context, options.approvals) : effective;
          toolSet[name] = context.memo ? remembered(name, tool, context.memo) : tool;
        }
      }
      return toolSet;
    },
  };
}
