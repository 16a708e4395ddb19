/**
 * An example value of a JSON Schema, for a preview beside the editor: what an answer in this
 * shape could look like (defaults, consts and first enum members where given).
 */
type Schema = Record<string, unknown>;

function asSchema(value: unknown): Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Schema) : {};
}

export function exampleFromSchema(input: unknown, depth = 0): unknown {
  const schema = asSchema(input);
  if ("default" in schema) return schema.default;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (depth > 10) return null;
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) return exampleFromSchema(options[0], depth + 1);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((each) => each !== "null") : schema.type;
  switch (type ?? (schema.properties ? "object" : undefined)) {
    case "object":
      return Object.fromEntries(
        Object.entries(asSchema(schema.properties)).map(([name, property]) => [
          name,
          exampleFromSchema(property, depth + 1),
        ]),
      );
    case "array":
      return [exampleFromSchema(schema.items, depth + 1)];
    case "string":
      return typeof schema.description === "string" && schema.description ? schema.description : "text";
    case "integer":
      return typeof schema.minimum === "number" ? Math.ceil(schema.minimum) : 1;
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 1.5;
    case "boolean":
      return true;
    default:
      return null;
  }
}
