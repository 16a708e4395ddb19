import { noSampleAnswer, type Simulation } from "@/core";
import type { ToolContext, ToolSet } from "./types";

/**
 * Test runs: a side-effecting tool whose calls are not executed. Each call returns the agent
 * block's sample for the tool (`testing.tools[name]`) or, without one, a "no sample" result the
 * model reads like any tool result; either way the call's span is marked simulated.
 */
export function simulatedTool(
  name: string,
  definition: ToolSet[string],
  context: ToolContext,
  simulation: Simulation,
): ToolSet[string] {
  if (!definition.execute) return definition;
  return {
    ...definition,
    execute: async (_input: unknown, options: { toolCallId: string }) => {
      const sample = simulation.tool(name);
      const span = context.toolSpan(options.toolCallId);
      span?.markSimulated?.(sample ? "sample" : "no-sample");
      return sample ? sample.result : noSampleAnswer(simulation, `the call of the tool "${name}"`);
    },
  } as ToolSet[string];
}
