import { BlockExecutionError, TrellisError } from "@/executor/errors";
import { evaluateCondition } from "@/executor/expression";
import type { BlockHandler } from "@/executor/handler";
import { conditionConfigSchema } from "./definition";

/**
 * Takes the first branch whose expression is true; a last branch with no expression is the else.
 * The engine has already turned references in the expressions into literals (the condition type
 * declares `branches[].expression` as an expression field), so this only evaluates. With no branch
 * true and no else, `selectedBranch` is null and every branch's path is skipped.
 */
export const conditionHandler: BlockHandler = async ({ config, context }) => {
  const parsed = conditionConfigSchema.safeParse(config);
  if (!parsed.success) throw new BlockExecutionError(`Block '${context.block.name}': ${parsed.error.issues[0]?.message ?? "invalid branches"}`, { code: "invalid_config" });
  const branches = parsed.data.branches;
  for (const [index, branch] of branches.entries()) {
    const expression = branch.expression?.trim();
    if (!expression) return { output: { selectedBranch: branch.id } };
    let holds: boolean;
    try {
      holds = evaluateCondition(expression);
    } catch (error) {
      const label = branch.label ?? (index === 0 ? "if" : "else if");
      const message = error instanceof Error ? error.message : String(error);
      const code = error instanceof TrellisError ? error.code : "invalid_expression";
      throw new BlockExecutionError(`Branch '${branch.id}' (${label}) of '${context.block.name}': ${message}`, { code, cause: error });
    }
    if (holds) return { output: { selectedBranch: branch.id } };
  }
  return { output: { selectedBranch: null } };
};
