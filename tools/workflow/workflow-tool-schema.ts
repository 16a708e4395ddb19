import type { WorkflowToolTarget } from "./workflow-calls";

/** Tool names every provider accepts (OpenAI's rule is the strictest). */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** "Summarise Ticket!" -> "summarise_ticket"; a name with no usable letters falls back to the id. */
export function toolNameForWorkflow(target: Pick<WorkflowToolTarget, "id" | "name">): string {
  const base = target.name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^[_-]+|[_-]+$/g, "")
    .slice(0, 64);
  return base || `workflow_${target.id.replace(/[^A-Za-z0-9]/g, "").slice(0, 16)}`;
}

const JSON_TYPES = new Set(["string", "number", "boolean", "object", "array"]);

/**
 * The start block's inputs as the tool's JSON Schema: inputs without a default are required.
 * Inputs pre-filled in the tool entry (`fixed`) are not the model's to give, so they are left out.
 */
export function parametersForWorkflow(
  target: WorkflowToolTarget,
  fixed: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const properties: Record<string, Record<string, unknown>> = {};
  const required: string[] = [];
  for (const input of target.inputs) {
    if (fixed.has(input.name)) continue;
    const type = input.type && JSON_TYPES.has(input.type) ? input.type : "string";
    const property: Record<string, unknown> = { type };
    // Some providers refuse an array schema without items.
    if (type === "array") property.items = {};
    if (input.description) property.description = input.description;
    properties[input.name] = property;
    if (input.default === undefined) required.push(input.name);
  }
  return { type: "object", properties, required, additionalProperties: false };
}
