import Ajv from "ajv";

/**
 * Whether a value is a JSON Schema (checked against the draft-07 meta-schema by ajv) that
 * describes an object, as the agent's `responseFormat` must (its fields are spread into the
 * output). Answers what is wrong, or null.
 */
let ajv: Ajv | undefined;

export function objectSchemaProblem(value: unknown): string | null {
  // The OpenAI-style wrapper `{ name, schema, strict }` is accepted too: its `schema` is the one checked.
  if (unwrappedSchema(value) !== value) return objectSchemaProblem(unwrappedSchema(value));
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "must be a JSON Schema object";
  ajv ??= new Ajv({ strict: false, allErrors: true });
  if (!ajv.validateSchema(value))
    return `is not a valid JSON Schema: ${ajv.errorsText(ajv.errors, { dataVar: "schema" })}`;
  if ((value as { type?: unknown }).type !== "object")
    return 'must describe an object (type: "object") so its fields can be spread into the output';
  return null;
}

/** The schema itself, out of OpenAI's wrapper `{ name, schema, strict }` when it is in one. */
export function unwrappedSchema(value: unknown): unknown {
  const wrapped = typeof value === "object" && value !== null && !("type" in value) && "schema" in value;
  return wrapped ? (value as { schema: unknown }).schema : value;
}
