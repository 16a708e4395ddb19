/**
 * Builds the smallest value matching a JSON Schema: defaults, consts and first enum members where
 * given, otherwise minimums, empty strings, false and minItems-long arrays. Deterministic, so the
 * offline model's structured answers and evaluator scores are predictable and in range.
 */
type Schema = Record<string, unknown>;

function asSchema(value: unknown): Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Schema) : {};
}

function firstType(schema: Schema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return type.find((entry) => entry !== "null") as string | undefined;
  return typeof type === "string" ? type : undefined;
}

function numberValue(schema: Schema, integer: boolean): number {
  const minimum = typeof schema.minimum === "number" ? schema.minimum : undefined;
  const exclusive = typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum : undefined;
  const maximum = typeof schema.maximum === "number" ? schema.maximum : undefined;
  let value = minimum ?? (exclusive !== undefined ? exclusive + (integer ? 1 : 0.5) : 0);
  if (maximum !== undefined && value > maximum) value = maximum;
  return integer ? Math.ceil(value) : value;
}

export function valueFromSchema(input: unknown, depth = 0): unknown {
  const schema = asSchema(input);
  if ("default" in schema) return schema.default;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (depth > 20) return null;
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) return valueFromSchema(options[0], depth + 1);
  }
  switch (firstType(schema) ?? (schema.properties ? "object" : undefined)) {
    case "object": {
      const result: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(asSchema(schema.properties)))
        result[name] = valueFromSchema(property, depth + 1);
      return result;
    }
    case "array": {
      const count = typeof schema.minItems === "number" ? schema.minItems : 0;
      return Array.from({ length: count }, () => valueFromSchema(schema.items, depth + 1));
    }
    case "string": {
      const length = typeof schema.minLength === "number" ? schema.minLength : 0;
      return "x".repeat(length);
    }
    case "integer":
      return numberValue(schema, true);
    case "number":
      return numberValue(schema, false);
    case "boolean":
      return false;
    default:
      return null;
  }
}
