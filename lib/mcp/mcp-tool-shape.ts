import "server-only";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { entryBlockOf, startConfigSchema } from "@/blocks";
import type { z } from "zod";
import type { RunRecord } from "@/contract";
import { parametersForWorkflow } from "@/tools/workflow";
import type { ListedMcpTool } from "./mcp-tool-repository";

type StartInput = z.output<typeof startConfigSchema>["inputs"][number];

/** The start inputs a deployment's document declares: the tool's parameters. */
export function startInputsOf(document: unknown): StartInput[] {
  const blocks = (document as { blocks?: Array<{ type?: unknown; config?: unknown }> } | null)?.blocks ?? [];
  const start = entryBlockOf(blocks);
  return start ? (startConfigSchema.safeParse(start.config).data?.inputs ?? []) : [];
}

/**
 * The tool a published workflow is on the MCP server: its name, the publication's description
 * (else the workflow's own), and its active deployment's start inputs as the input schema, the
 * same schema an agent's workflow tool gets (inputs without a default are required).
 */
export function mcpToolOf(listed: ListedMcpTool): Tool {
  const description =
    listed.description ||
    listed.workflowDescription ||
    `Runs the Trellis workflow "${listed.workflowName}" and answers its output.`;
  const inputSchema = parametersForWorkflow({
    id: listed.workflowId,
    name: listed.workflowName,
    inputs: startInputsOf(listed.document),
  });
  return {
    name: listed.toolName,
    title: listed.workflowName,
    description,
    inputSchema: inputSchema as Tool["inputSchema"],
  };
}

const typeOfValue = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "array" : typeof value;

/**
 * What is wrong with a call's arguments against the tool's inputs, one sentence each (empty when
 * nothing is): a missing input that has no default, a value of another JSON type, a name the
 * tool does not take. Checked before a run starts, so a bad call stores no failed run.
 */
export function argumentProblems(inputs: readonly StartInput[], args: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const input of inputs) {
    if (!Object.hasOwn(args, input.name)) {
      if (input.default === undefined) problems.push(`'${input.name}' is required (it has no default)`);
      continue;
    }
    const got = typeOfValue(args[input.name]);
    if (got !== input.type)
      problems.push(
        `'${input.name}' must be ${input.type === "array" || input.type === "object" ? "an" : "a"} ${input.type}, got ${got}`,
      );
  }
  const declared = new Set(inputs.map((input) => input.name));
  const unknown = Object.keys(args).filter((name) => !declared.has(name));
  if (unknown.length > 0) {
    const takes = inputs.length ? `it takes ${inputs.map((input) => `'${input.name}'`).join(", ")}` : "it takes none";
    problems.push(
      `${unknown.map((name) => `'${name}'`).join(", ")} ${unknown.length === 1 ? "is not an input" : "are not inputs"} of this tool (${takes})`,
    );
  }
  return problems;
}

/** A refusal the calling model can read and correct, as MCP wants input errors reported. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A finished run as the tool's result: its output as text (text as it is, anything else as JSON)
 * and, for an object, also as `structuredContent`; a run that failed or was cancelled as an error
 * naming the run, so it can be looked up. The run's id is in `_meta` either way.
 */
export function resultOfRun(run: Pick<RunRecord, "id" | "status" | "output" | "error">): CallToolResult {
  const _meta = { "trellis/runId": run.id };
  if (run.status !== "succeeded") {
    const why =
      run.status === "cancelled" ? "was cancelled" : `failed: ${run.error?.message ?? "no error was recorded"}`;
    return { ...toolError(`The workflow run ${run.id} ${why}${run.error?.code ? ` (${run.error.code})` : ""}`), _meta };
  }
  const output = run.output ?? null;
  const text = typeof output === "string" ? output : JSON.stringify(output, null, 2);
  return { content: [{ type: "text", text }], ...(isPlainObject(output) ? { structuredContent: output } : {}), _meta };
}
