import type { StartConfig } from "./definition";

/** A JSON Schema (draft 2020-12) of the `input` a run of a workflow takes. */
export interface StartInputJsonSchema {
  $schema: "https://json-schema.org/draft/2020-12/schema";
  type: "object";
  properties: Record<string, { type: string; description?: string; default?: unknown }>;
  required: string[];
  additionalProperties: true;
}

/**
 * The start block's declared inputs as a JSON Schema, for callers of a deployed workflow: an input
 * with no default is required (the start block refuses a run without it), and undeclared fields
 * pass through (the start block keeps them), hence `additionalProperties`.
 */
export function startInputJsonSchema(inputs: StartConfig["inputs"]): StartInputJsonSchema {
  const properties: StartInputJsonSchema["properties"] = {};
  for (const input of inputs) {
    properties[input.name] = {
      type: input.type,
      ...(input.description ? { description: input.description } : {}),
      ...(input.default === undefined ? {} : { default: input.default }),
    };
  }
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties,
    required: inputs.filter((input) => input.default === undefined).map((input) => input.name),
    additionalProperties: true,
  };
}
