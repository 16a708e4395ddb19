import { BlockExecutionError } from "@/executor";

/**
 * The agent's `responseFormat` as a JSON Schema object. Accepts the schema itself, JSON text of
 * it, or the OpenAI-style wrapper `{ name, schema, strict }`.
 */
export function normalizeResponseFormat(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  let schema: unknown = value;
  if (typeof schema === "string") {
    try {
      schema = JSON.parse(schema);
    } catch {
      throw new BlockExecutionError("responseFormat must be a JSON Schema object (the text given is not JSON)", {
        code: "invalid_config",
      });
    }
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new BlockExecutionError("responseFormat must be a JSON Schema object", { code: "invalid_config" });
  }
  const record = schema as Record<string, unknown>;
  if (!("type" in record) && typeof record.schema === "object" && record.schema !== null)
    return normalizeResponseFormat(record.schema);
  if (record.type !== "object") {
    throw new BlockExecutionError(
      'responseFormat must describe an object (type: "object") so its fields can be spread into the output',
      {
        code: "invalid_config",
      },
    );
  }
  return record;
}
