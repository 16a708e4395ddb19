import { z } from "zod";
import { ERROR_HANDLE, type BlockDefinition } from "../types";

export const conditionBranchSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1 to 64 characters of A-Z, a-z, 0-9, _ or -"),
  label: z.string().optional(),
  /** Absent or empty on the last branch only: the else branch. */
  expression: z.string().optional(),
});

export const conditionConfigSchema = z.object({
  branches: z
    .array(conditionBranchSchema)
    .min(1, "add at least one branch")
    .superRefine((branches, context) => {
      const seen = new Set<string>();
      branches.forEach((branch, index) => {
        if (seen.has(branch.id))
          context.addIssue({ code: "custom", path: [index, "id"], message: `duplicate branch id "${branch.id}"` });
        seen.add(branch.id);
        const isLast = index === branches.length - 1;
        if (!isLast && !branch.expression?.trim())
          context.addIssue({
            code: "custom",
            path: [index, "expression"],
            message: "only the last branch may have no expression (else)",
          });
      });
    }),
});

export type ConditionConfig = z.infer<typeof conditionConfigSchema>;

export const conditionDefinition = {
  type: "condition",
  label: "Condition",
  icon: "GitBranch",
  category: "logic",
  description: "Takes the first branch whose expression is true (if / else if / else).",
  configSchema: conditionConfigSchema,
  fields: [{ key: "branches", label: "Branches", kind: "branches", needs: "Add at least one branch" }],
  outputs: [{ path: "selectedBranch", type: "string" }],
  acceptsInput: true,
  sourceHandles: (block) => {
    const parsed = conditionConfigSchema.safeParse(block.config);
    const branches = parsed.success ? parsed.data.branches : [];
    return [
      ...branches.map((branch, index) => ({
        id: `branch:${branch.id}`,
        label: branch.label ?? (index === 0 ? "if" : branch.expression?.trim() ? "else if" : "else"),
        variant: "branch" as const,
      })),
      ERROR_HANDLE,
    ];
  },
  routing: "branch",
  expressionFields: ["branches[].expression"],
  docs: {
    config: "`branches: [{id, label?, expression}]`; the last branch may have no expression (else)",
    output: "`selectedBranch`",
  },
} satisfies BlockDefinition<typeof conditionConfigSchema>;
