import { z } from "zod";
import { STANDARD_HANDLES, type BlockDefinition } from "../types";
import { VARIABLE_NAME } from "./names";

export const variableAssignmentSchema = z.object({
  name: z.string(),
  /** Text with references; exactly one reference keeps the referenced value as it is (an array stays an array). */
  value: z.unknown().optional(),
  /** Instead of `value`: an expression (`<variable.count> + 1`) whose result is assigned. */
  expression: z.string().optional(),
});

export const variablesConfigSchema = z.object({
  assignments: z
    .array(variableAssignmentSchema)
    .min(1, "add at least one assignment")
    .superRefine((assignments, context) => {
      const seen = new Set<string>();
      assignments.forEach((assignment, index) => {
        if (!VARIABLE_NAME.test(assignment.name))
          context.addIssue({
            code: "custom",
            path: [index, "name"],
            message: `${JSON.stringify(assignment.name)} is not a variable name (a letter or _ first, then letters, digits or _)`,
          });
        else if (seen.has(assignment.name))
          context.addIssue({
            code: "custom",
            path: [index, "name"],
            message: `'${assignment.name}' is assigned twice in this block`,
          });
        seen.add(assignment.name);
      });
    }),
});

export type VariablesConfig = z.infer<typeof variablesConfigSchema>;

/** The names a Set Variables block assigns, as written (for completion and the save-time reference check). */
export function assignedNames(config: unknown): string[] {
  const assignments = (config as { assignments?: unknown } | null)?.assignments;
  if (!Array.isArray(assignments)) return [];
  return assignments.flatMap((item: unknown) => {
    const name = (item as { name?: unknown } | null)?.name;
    return typeof name === "string" && VARIABLE_NAME.test(name) ? [name] : [];
  });
}

export const variablesDefinition = {
  type: "variables",
  label: "Set Variables",
  icon: "Variable",
  category: "data",
  description: "Sets workflow variables (<variable.name>) for the blocks after it.",
  configSchema: variablesConfigSchema,
  fields: [
    { key: "assignments", label: "Assignments", kind: "assignments", needs: "Add at least one variable to set" },
  ],
  // The output holds each assigned name; reference completion lists them per block.
  outputs: [],
  acceptsInput: true,
  sourceHandles: () => STANDARD_HANDLES,
  assignsVariables: (block) => assignedNames(block.config),
  expressionFields: ["assignments[].expression"],
  docs: {
    config: "`assignments: [{name, value?} or {name, expression}]` (section 2)",
    output: "`{ name: value }` for each assignment",
    note: 'extension, "Set Variables"',
  },
} satisfies BlockDefinition<typeof variablesConfigSchema>;
