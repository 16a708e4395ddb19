import { jsonSchema, tool } from "ai";
import { BlockExecutionError } from "@/core";
import type { ToolContext, ToolEntry, ToolProvider, ToolSet } from "../types";
import {
  checkWorkflowCall,
  childRunFailure,
  DEFAULT_MAX_WORKFLOW_DEPTH,
  describeCalledWorkflow,
  type WorkflowCalls,
  type WorkflowToolTarget,
} from "./workflow-calls";
import { parametersForWorkflow, TOOL_NAME_PATTERN, toolNameForWorkflow } from "./workflow-tool-schema";

export const WORKFLOW_TOOL_TYPE = "workflow";

type WorkflowParams = Extract<ToolEntry, { kind: "workflow" }>["params"];

/** The entry's params, which its schema (contract/tool-entry.ts) checked: the registry gives this provider its own type's entries only. */
function paramsOf(entry: ToolEntry): WorkflowParams {
  if (entry.kind !== "workflow")
    throw new BlockExecutionError(`The workflow tool was given a "${entry.type}" entry`, { code: "invalid_tool" });
  return entry.params;
}

async function describe(deps: WorkflowCalls, { workflowId }: WorkflowParams): Promise<WorkflowToolTarget> {
  return describeCalledWorkflow(
    deps,
    workflowId,
    (reason) =>
      new BlockExecutionError(`The workflow tool cannot use workflow "${workflowId}": ${reason}`, {
        code: "invalid_tool",
      }),
  );
}

/**
 * `params.inputs`: start inputs pre-filled in the entry (references resolved when the agent runs),
 * each one the called workflow has; a `null` one (a reference to nothing) is left to the model.
 */
function fixedInputs({ inputs }: WorkflowParams, target: WorkflowToolTarget): Record<string, unknown> {
  if (inputs === undefined) return {};
  const known = new Set(target.inputs.map((input) => input.name));
  const fixed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(inputs)) {
    if (!known.has(name)) {
      throw new BlockExecutionError(
        `The workflow tool pre-fills "${name}", which is not a start input of workflow "${target.name}" (its inputs: ${[...known].join(", ") || "none"})`,
        { code: "invalid_tool" },
      );
    }
    if (value !== null && value !== undefined) fixed[name] = value;
  }
  return fixed;
}

function createWorkflowTool(
  deps: WorkflowCalls,
  target: WorkflowToolTarget,
  description: string,
  context: ToolContext,
  fixed: Record<string, unknown>,
) {
  return tool({
    description,
    inputSchema: jsonSchema<Record<string, unknown>>(parametersForWorkflow(target, new Set(Object.keys(fixed)))),
    execute: async (modelInput, { toolCallId }) => {
      const input = { ...modelInput, ...fixed };
      const result = await deps.runWorkflow({
        workflowId: target.id,
        input,
        depth: context.depth + 1,
        signal: context.signal,
        parentRunId: context.runId,
        ...(context.budget ? { budget: context.budget } : {}),
      });
      context.reportUsage?.(toolCallId, result.usage);
      // Its spending is reported above, on the call's span: not again on the error.
      if (result.status !== "succeeded") throw childRunFailure(target, result);
      return { runId: result.runId, workflowId: target.id, output: result.output };
    },
  });
}

/**
 * `workflow` (a workflow as a tool, as the agent-flows seed registers flows as skills):
 * `{ type: "workflow", params: { workflowId, description?, inputs? }, name? }`. The target's start
 * inputs are the tool's parameters, less those pre-filled in `inputs`; each call is a child run of its own, nested at most `maxDepth` deep,
 * and a workflow can never call itself, directly or through others.
 */
export function createWorkflowToolProvider(deps: WorkflowCalls): ToolProvider {
  const maxDepth = deps.maxDepth ?? DEFAULT_MAX_WORKFLOW_DEPTH;
  return {
    directOutput: true,
    tools: [
      {
        type: WORKFLOW_TOOL_TYPE,
        label: "Workflow",
        description: "Runs another workflow (params.workflowId); its start inputs are the tool's parameters.",
        params: [
          {
            name: "description",
            label: "Description the model sees",
            kind: "text",
            description: "Default: the workflow's own description",
          },
        ],
      },
    ],
    async createTools(entries, context) {
      const tools: ToolSet = {};
      const chain = await deps.callChain(context.runId, context.workflowId);
      for (const entry of entries) {
        const params = paramsOf(entry);
        const target = await describe(deps, params);
        // Checked before the model sees the tool: a cycle is a mistake in the workflows, not a model's choice.
        checkWorkflowCall(chain, { workflowId: target.id, workflowName: target.name }, context.depth, maxDepth);
        const name = entry.name ?? toolNameForWorkflow(target);
        if (!TOOL_NAME_PATTERN.test(name)) {
          throw new BlockExecutionError(
            `Tool name "${name}" for workflow "${target.name}" must use letters, digits, _ and - (1 to 64)`,
            {
              code: "invalid_tool",
            },
          );
        }
        if (context.reservedNames?.has(name)) {
          throw new BlockExecutionError(
            `The tool for workflow "${target.name}" would be named "${name}", the name of the built-in "${name}" tool; give the entry a "name"`,
            { code: "invalid_tool" },
          );
        }
        if (name in tools)
          throw new BlockExecutionError(`Two workflow tools are named "${name}"; give one a "name"`, {
            code: "invalid_tool",
          });
        const description =
          params.description || target.description || `Runs the workflow "${target.name}" and returns its output.`;
        tools[name] = createWorkflowTool(deps, target, description, context, fixedInputs(params, target));
        if (entry.directOutput) context.markDirectOutput?.(name);
      }
      return tools;
    },
  };
}
