import "server-only";
import { BlockExecutionError, isTrellisError, evaluateCondition, type BlockHandler } from "@/executor";
import type { ConditionConfig } from "./definition";

/**
 * Takes the first branch whose expression is true; a last branch with no expression is the else.
 * The engine has already turned references in the expressions into literals (the condition type
 * declares `branches[].expression` as an expression field), so this only evaluates. With no branch
 * true and no else, `selectedBranch` is null and every branch's path is skipped.
 */
export const conditionHandler: BlockHandler<ConditionConfig> = async ({ config, context }) => {
  for (const [index, branch] of config.branches.entries()) {
    const expression = branch.expression?.trim();
    if (!expression) return { output: { selectedBranch: branch.id } };
    let holds: boolean;
    try {
      holds = evaluateCondition(expression);
    } catch (error) {
      const label = branch.label ?? (index === 0 ? "if" : "else if");
      const message = error instanceof Error ? error.message : String(error);
      const code = isTrellisError(error) ? error.code : "invalid_expression";
      throw new BlockExecutionError(`Branch '${branch.id}' (${label}) of '${context.block.name}': ${message}`, {
        code,
        cause: error,
      });
    }
    if (holds) return { output: { selectedBranch: branch.id } };
  }
  return { output: { selectedBranch: null } };
};
