/**
 * A JSON Schema of an object as rows a person edits (name, type, description, required), one
 * level of nesting under an object or an array of objects. Schemas the rows cannot hold exactly
 * (enums, deeper nesting, combinators) are edited as JSON instead: `rowsFromSchema` says so.
 */

export const PROPERTY_TYPES = ["string", "number", "integer", "boolean", "object", "array"] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];
export type ItemType = Exclude<PropertyType, "array">;

export interface PropertyRow {
  name: string;
  type: PropertyType;
  description: string;
  required: boolean;
  /** For `array`: the type of its items. */
  items?: ItemType;
  /** For `object`, or an array of objects: its properties (one level, no deeper). */
  children?: PropertyRow[];
}

export interface RowIssue {
  /** Where, as row indexes: `[2]` or `[2, 0]` for a nested row. */
  at: number[];
  message: string;
}

type Schema = Record<string, unknown>;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function isRecord(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function objectSchema(rows: PropertyRow[], nested: boolean): Schema {
  const properties: Schema = {};
  for (const row of rows) properties[row.name] = propertySchema(row, nested);
  return {
    type: "object",
    properties,
    required: rows.filter((row) => row.required).map((row) => row.name),
    additionalProperties: false,
  };
}

function propertySchema(row: PropertyRow, nested: boolean): Schema {
  const described = (schema: Schema): Schema =>
    row.description ? { ...schema, description: row.description } : schema;
  const canNest = !nested;
  if (row.type === "object") return described(objectSchema(canNest ? (row.children ?? []) : [], true));
  if (row.type === "array") {
    const itemType = row.items ?? "string";
    const items = itemType === "object" ? objectSchema(canNest ? (row.children ?? []) : [], true) : { type: itemType };
    return described({ type: "array", items });
  }
  return described({ type: row.type });
}

/** The rows as a JSON Schema of an object; every object is closed (`additionalProperties: false`), as strict structured output wants. */
export function schemaFromRows(rows: PropertyRow[]): Schema {
  return objectSchema(rows, false);
}

function rowsOf(schema: Schema, depth: number): PropertyRow[] | null {
  const properties = schema.properties ?? {};
  if (!isRecord(properties)) return null;
  const required = Array.isArray(schema.required) ? schema.required : [];
  const rows: PropertyRow[] = [];
  for (const [name, property] of Object.entries(properties)) {
    if (!isRecord(property)) return null;
    const type = property.type;
    if (typeof type !== "string" || !(PROPERTY_TYPES as readonly string[]).includes(type)) return null;
    const row: PropertyRow = {
      name,
      type: type as PropertyType,
      description: typeof property.description === "string" ? property.description : "",
      required: required.includes(name),
    };
    if (type === "object") {
      if (depth > 0) return null;
      const children = rowsOf(property, depth + 1);
      if (!children) return null;
      row.children = children;
    }
    if (type === "array") {
      const items = isRecord(property.items) ? property.items : {};
      const itemType = typeof items.type === "string" ? items.type : "string";
      if (!(PROPERTY_TYPES as readonly string[]).includes(itemType) || itemType === "array") return null;
      row.items = itemType as ItemType;
      if (itemType === "object") {
        if (depth > 0) return null;
        const children = rowsOf(items, depth + 1);
        if (!children) return null;
        row.children = children;
      }
    }
    rows.push(row);
  }
  return rows;
}

/** Sorted keys and no `additionalProperties: false`, which the rows always add: for telling whether rows hold a schema exactly. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isRecord(value)) return value;
  const result: Schema = {};
  for (const key of Object.keys(value).sort()) {
    if (key === "additionalProperties" && value[key] === false) continue;
    if (key === "required" && Array.isArray(value[key])) {
      const required = [...(value[key] as unknown[])].sort();
      if (required.length > 0) result[key] = required;
      continue;
    }
    if (key === "properties" && isRecord(value[key]) && Object.keys(value[key]).length === 0) continue;
    result[key] = canonical(value[key]);
  }
  return result;
}

/**
 * The rows of an object schema, or null when rows cannot hold it exactly (then it is edited as
 * JSON, so nothing a person wrote is dropped by switching views). No schema is no rows.
 */
export function rowsFromSchema(schema: unknown): PropertyRow[] | null {
  if (schema === undefined || schema === null) return [];
  if (!isRecord(schema) || schema.type !== "object") return null;
  const rows = rowsOf(schema, 0);
  if (!rows) return null;
  return JSON.stringify(canonical(schemaFromRows(rows))) === JSON.stringify(canonical(schema)) ? rows : null;
}

/** What is wrong with the rows: empty, invalid or repeated names, at each level. */
export function rowIssues(rows: PropertyRow[], at: number[] = []): RowIssue[] {
  const issues: RowIssue[] = [];
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const here = [...at, index];
    if (!row.name) issues.push({ at: here, message: "needs a name" });
    else if (!IDENTIFIER.test(row.name))
      issues.push({
        at: here,
        message: `"${row.name}" is not a valid name: use letters, digits and _, not starting with a digit`,
      });
    else if (seen.has(row.name)) issues.push({ at: here, message: `"${row.name}" is used twice` });
    seen.add(row.name);
    if (row.children && (row.type === "object" || (row.type === "array" && row.items === "object")))
      issues.push(...rowIssues(row.children, here));
  });
  return issues;
}

export function emptyRow(rows: PropertyRow[]): PropertyRow {
  let number = rows.length + 1;
  while (rows.some((row) => row.name === `field${number}`)) number += 1;
  return { name: `field${number}`, type: "string", description: "", required: true };
}
