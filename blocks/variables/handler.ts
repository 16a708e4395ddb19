import "server-only";
import { BlockExecutionError, evaluateExpression, isTrellisError, type BlockHandler } from "@/executor";
import type { VariablesConfig } from "./definition";

/**
 * Assigns workflow variables: the output is `{ name: value }` for each assignment, which the
 * engine shows to the blocks downstream as `<variable.name>` (docs/CONTRACT.md section 2). The
 * engine has resolved every reference against the values before this block, so assignments in
 * one block never see each other; an expression's references are already literals here.
 */
export const variablesHandler: BlockHandler<VariablesConfig> = async ({ config, context }) => {
  const output: Record<string, unknown> = {};
  for (const [index, assignment] of config.assignments.entries()) {
    const expression = assignment.expression?.trim();
    if (!expression) {
      output[assignment.name] = assignment.value ?? null;
      continue;
    }
    try {
      output[assignment.name] = evaluateExpression(expression) ?? null;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const code = isTrellisError(error) ? error.code : "invalid_expression";
      throw new BlockExecutionError(
        `Assignment ${index + 1} ('${assignment.name}') of '${context.block.name}': ${message}`,
        { code, cause: error },
      );
    }
  }
  return { output };
};
