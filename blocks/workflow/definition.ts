import { z } from "zod";
import { STANDARD_HANDLES, type BlockDefinition } from "../types";

export const workflowBlockConfigSchema = z.object({
  /** The workflow of the same workspace to run. */
  workflowId: z.string().min(1, "choose a workflow"),
  /** `draft`: the workflow as saved now; `deployment`: its active deployment (none deployed fails the block). */
  target: z.enum(["draft", "deployment"]).default("draft"),
  /** The child's start inputs by name; values may hold references. */
  inputs: z.record(z.string(), z.unknown()).default({}),
});

export type WorkflowBlockConfig = z.infer<typeof workflowBlockConfigSchema>;

export const workflowBlockDefinition = {
  type: "workflow",
  label: "Workflow",
  icon: "Workflow",
  category: "core",
  description: "Runs another workflow of the workspace as a child run; its output is this block's.",
  configSchema: workflowBlockConfigSchema,
  fields: [
    {
      key: "workflowId",
      label: "Workflow",
      kind: "workflow",
      needs: "Choose the workflow to run",
      help: "The workflow to run; its start inputs appear below",
    },
    {
      key: "target",
      label: "Runs",
      kind: "select",
      options: [
        { value: "draft", label: "Its draft (as saved now)" },
        { value: "deployment", label: "Its active deployment" },
      ],
    },
    { key: "inputs", label: "Inputs", kind: "workflowInputs" },
  ],
  outputs: [
    { path: "output", type: "any", description: "The child run's output" },
    { path: "runId", type: "string", description: "The child run, inspectable like any other" },
    { path: "workflowId", type: "string" },
    { path: "tokens", type: "object" },
    { path: "tokens.total", type: "number" },
    { path: "cost", type: "object" },
    { path: "cost.total", type: "number" },
  ],
  acceptsInput: true,
  sourceHandles: () => STANDARD_HANDLES,
  storedReferences: (config) => [{ kind: "workflow", value: config.workflowId, path: "workflowId", runs: true }],
  docs: {
    config:
      "`workflowId, target? (draft/deployment, default draft), inputs? ({ startInputName: value }, references allowed)`",
    output:
      "`output` (the child run's output: `<Child.output.answer>`), `runId, workflowId, tokens, cost` (the child run's totals)",
    note: "an extension",
  },
} satisfies BlockDefinition<typeof workflowBlockConfigSchema>;
