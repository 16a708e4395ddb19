import type { JsonSchema, OpenApiDocument, OpenApiOperationObject } from "@/contract/openapi";

/** Pure reading of the OpenAPI document for the docs page: operations by tag, and what a `$ref` names. */

export interface OperationView {
  method: string;
  path: string;
  operation: OpenApiOperationObject;
}

export interface TagView {
  name: string;
  description: string;
  operations: OperationView[];
}

/** The tags in the document's order, each with its operations in the order of `paths`. */
export function operationsByTag(document: OpenApiDocument): TagView[] {
  const tags = document.tags.map((tag) => ({ ...tag, operations: [] as OperationView[] }));
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const tag = tags.find((candidate) => operation.tags.includes(candidate.name));
      tag?.operations.push({ method: method.toUpperCase(), path, operation });
    }
  }
  return tags.filter((tag) => tag.operations.length > 0);
}

/** The last segment of a local `$ref` (`#/components/schemas/Run` gives `Run`), or null. */
export function refName(value: unknown): string | null {
  if (typeof value !== "object" || value === null || !("$ref" in value) || typeof value.$ref !== "string") return null;
  return value.$ref.slice(value.$ref.lastIndexOf("/") + 1);
}

/** The anchor of a component schema on the page. */
export const schemaAnchor = (name: string) => `schema-${name}`;

/** A parameter, with the document's shared ones (`$ref`) looked up. */
export interface ParameterView {
  name: string;
  in: string;
  description: string;
  required: boolean;
  schema: JsonSchema;
}

export function parametersOf(document: OpenApiDocument, operation: OpenApiOperationObject): ParameterView[] {
  return operation.parameters.map((parameter) => {
    const shared = refName(parameter);
    const resolved = (shared ? document.components.parameters[shared] : parameter) as Partial<ParameterView>;
    return {
      name: resolved.name ?? shared ?? "",
      in: resolved.in ?? "",
      description: resolved.description ?? "",
      required: resolved.required === true,
      schema: resolved.schema ?? {},
    };
  });
}

/** A short type for a parameter's schema: `integer`, `string`, `string | null`. */
export function typeText(schema: JsonSchema): string {
  const type = schema.type;
  if (Array.isArray(type)) return type.join(" | ");
  return type ?? "any";
}

/** Successful answers (below 400) and errors apart: the errors are shared responses named by status. */
export function answersOf(operation: OpenApiOperationObject) {
  const entries = Object.entries(operation.responses);
  return {
    successes: entries.filter(([status]) => Number(status) < 400),
    errors: entries
      .filter(([status]) => Number(status) >= 400)
      .map(([status, response]) => ({ status, name: refName(response) ?? "" })),
  };
}

export const ACCESS_TEXT: Record<OpenApiOperationObject["x-trellis-access"], string> = {
  public: "Public: no credentials",
  "signed-in": "Signed in: a session or an API key",
  member: "Member of the workspace",
};

/** The method badge's colours. */
export const METHOD_CLASS: Record<string, string> = {
  GET: "bg-sky-100 text-sky-800",
  POST: "bg-emerald-100 text-emerald-800",
  PUT: "bg-amber-100 text-amber-800",
  PATCH: "bg-violet-100 text-violet-800",
  DELETE: "bg-red-100 text-red-800",
};
