import { z } from "zod";
import { RESERVED_NAMES } from "../reserved-names";
import { ANSWER_COMPONENTS, componentRegistry, REQUEST_COMPONENTS } from "./components";
import { API_DESCRIPTION, ERROR_RESPONSES, SECURITY_SCHEMES, WORKSPACE_PARAMETER } from "./description";
import {
  errorStatusesOf,
  OPERATION_TAGS,
  type ApiOperation,
  type OperationAnswer,
  type OperationParameter,
} from "./operation";

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as z.toJSONSchema writes it. */
export type JsonSchema = z.core.JSONSchema.BaseSchema;

/** The parts of an OpenAPI 3.1 document this generator writes; the docs page reads the same. */
export interface OpenApiOperationObject {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  parameters: Array<Record<string, unknown>>;
  requestBody?: {
    required: boolean;
    description?: string;
    content: Record<string, { schema: JsonSchema; example?: unknown }>;
  };
  responses: Record<
    string,
    | { description: string; content?: Record<string, { schema: JsonSchema }>; headers?: Record<string, unknown> }
    | { $ref: string }
  >;
  security?: Array<Record<string, string[]>>;
  "x-trellis-access": ApiOperation["access"];
  "x-trellis-role"?: string;
}

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, OpenApiOperationObject>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, unknown>;
    parameters: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
  security: Array<Record<string, string[]>>;
}

type Io = "input" | "output";

const schemaRef = (name: string) => `#/components/schemas/${name}`;

/** What every conversion shares: 2020-12, and zod's own rules for what has no JSON Schema. */
function conversionOptions(io: Io): z.core.ToJSONSchemaParams {
  return {
    target: "draft-2020-12",
    io,
    // Only withoutReservedKeys's z.custom() guard (reserved-names.ts) has no JSON Schema; the
    // override below writes its record in its place. Anything else unrepresentable (a transform
    // in an answer, a bigint) fails the generation, and so the tests, instead of reading as "any".
    unrepresentable: ({ zodSchema }) => (zodSchema._zod.def.type === "custom" ? "any" : "throw"),
    override: ({ zodSchema, jsonSchema }) => {
      // The ISO pattern zod adds is pages long; `format: date-time` says the same.
      if (jsonSchema.format === "date-time") delete jsonSchema.pattern;
      const def = zodSchema._zod.def;
      if (def.type === "pipe" && def.in._zod.def.type === "custom") {
        if (io === "input") Object.assign(jsonSchema, standalone(def.out, io));
        jsonSchema.propertyNames = { type: "string", not: { enum: [...RESERVED_NAMES] } };
      }
    },
  };
}

/** One schema on its own (a parameter's), without the `$schema` a component does not carry. */
function standalone(schema: z.core.$ZodType, io: Io): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, conversionOptions(io));
  return json;
}

/** The named schemas as `components.schemas`, each reference to another named one a `$ref`. */
function convertComponents(components: Record<string, z.ZodType>, io: Io): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(componentRegistry(components), { ...conversionOptions(io), uri: schemaRef });
  if ("__shared" in schemas)
    throw new Error(
      "A component refers to a schema that is neither named nor inlined (a cycle?): name it in components.ts.",
    );
  return Object.fromEntries(
    Object.entries(schemas).map(([name, { $schema: _dialect, $id: _id, id: _name, ...json }]) => [
      name,
      json as JsonSchema,
    ]),
  );
}

/** The name of a catalog schema among the components (componentsOf names every request and answer schema). */
function nameOf(schema: z.ZodType, components: Record<string, z.ZodType>, where: string): string {
  const found = Object.entries(components).find(([, candidate]) => candidate === schema);
  if (!found) throw new Error(`${where}: its schema has no name among the components`);
  return found[0];
}

interface Components {
  requests: Record<string, z.ZodType>;
  answers: Record<string, z.ZodType>;
}

/**
 * The named components, and each schema an operation declares that components.ts does not name,
 * named after its operation (`getRunStatus`'s answer: `GetRunStatusAnswer`), so a schema used by
 * one operation alone can live in its declaration. A name already taken is an error, not a rename.
 */
function componentsOf(operations: readonly ApiOperation[]): Components {
  const requests = { ...REQUEST_COMPONENTS };
  const answers = { ...ANSWER_COMPONENTS };
  const add = (components: Record<string, z.ZodType>, name: string, schema: z.ZodType) => {
    if (Object.values(components).includes(schema)) return;
    if (name in REQUEST_COMPONENTS || name in ANSWER_COMPONENTS || name in components)
      throw new Error(`${name} names two schemas`);
    components[name] = schema;
  };
  for (const operation of operations) {
    const base = operation.operationId.charAt(0).toUpperCase() + operation.operationId.slice(1);
    if (operation.request) add(requests, `${base}Request`, operation.request.schema);
    const withSchemas = operation.answers.filter((answer) => answer.schema);
    for (const answer of withSchemas)
      add(answers, withSchemas.length === 1 ? `${base}Answer` : `${base}Answer${answer.status}`, answer.schema!);
  }
  return { requests, answers };
}

function parameterObject(parameter: OperationParameter): Record<string, unknown> {
  return {
    name: parameter.name,
    in: parameter.in,
    description: parameter.description,
    required: parameter.in === "path" || parameter.required === true,
    schema: standalone(parameter.schema ?? z.string(), "input"),
  };
}

function responsesOf(operation: ApiOperation, components: Components): OpenApiOperationObject["responses"] {
  const where = `${operation.method} ${operation.path}`;
  const byStatus = new Map<number, OperationAnswer[]>();
  for (const answer of operation.answers) byStatus.set(answer.status, [...(byStatus.get(answer.status) ?? []), answer]);
  const responses: OpenApiOperationObject["responses"] = {};
  for (const [status, answers] of byStatus) {
    const content: Record<string, { schema: JsonSchema }> = {};
    for (const answer of answers) {
      const type = answer.contentType ?? "application/json";
      if (answer.schema)
        content[type] = { schema: { $ref: schemaRef(nameOf(answer.schema, components.answers, where)) } };
      else if (type !== "application/json") content[type] = { schema: { type: "string" } };
    }
    const headers = Object.fromEntries(
      answers
        .flatMap((answer) => Object.entries(answer.headers ?? {}))
        .map(([name, description]) => [name, { description, schema: { type: "string" } }]),
    );
    responses[String(status)] = {
      description: answers.map((answer) => answer.description).join(" "),
      ...(Object.keys(content).length > 0 ? { content } : {}),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
    };
  }
  for (const status of errorStatusesOf(operation))
    responses[String(status)] = { $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` };
  return responses;
}

function operationObject(operation: ApiOperation, components: Components): OpenApiOperationObject {
  const where = `${operation.method} ${operation.path}`;
  const inPath = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
  const described = (operation.parameters ?? [])
    .filter((parameter) => parameter.in === "path")
    .map((parameter) => parameter.name);
  if (inPath.join() !== described.join())
    throw new Error(`${where}: path parameters ${described.join(", ")} do not match the path`);
  const parameters: Array<Record<string, unknown>> = (operation.parameters ?? []).map(parameterObject);
  if (operation.access === "member" && !inPath.includes("workspaceId"))
    parameters.push({ $ref: "#/components/parameters/Workspace" });
  const { request } = operation;
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    parameters,
    ...(request
      ? {
          requestBody: {
            required: request.required,
            ...(request.description ? { description: request.description } : {}),
            content: {
              [request.contentType ?? "application/json"]: {
                schema: { $ref: schemaRef(nameOf(request.schema, components.requests, where)) },
                ...(request.example === undefined ? {} : { example: request.example }),
              },
              ...Object.fromEntries((request.alsoAccepts ?? []).map((type) => [type, { schema: { type: "string" } }])),
            },
          },
        }
      : {}),
    responses: responsesOf(operation, components),
    // Public operations need no credentials; the others take the document's default (a key or a session).
    ...(operation.access === "public" ? { security: [] } : {}),
    "x-trellis-access": operation.access,
    ...(operation.role ? { "x-trellis-role": operation.role } : {}),
  };
}

/** The OpenAPI 3.1 document of the operations, their schemas converted from zod with z.toJSONSchema. */
export function buildOpenApiDocument(
  operations: readonly ApiOperation[],
  options: { version: string },
): OpenApiDocument {
  const components = componentsOf(operations);
  const requests = convertComponents(components.requests, "input");
  const answers = convertComponents(components.answers, "output");
  const clash = Object.keys(requests).find((name) => name in answers);
  if (clash) throw new Error(`${clash} names both a request and an answer schema`);
  const paths: OpenApiDocument["paths"] = {};
  const operationIds = new Set<string>();
  for (const operation of operations) {
    const item = (paths[operation.path] ??= {});
    const method = operation.method.toLowerCase();
    if (item[method] || operationIds.has(operation.operationId))
      throw new Error(`${operation.method} ${operation.path} (${operation.operationId}) is in the catalog twice`);
    operationIds.add(operation.operationId);
    item[method] = operationObject(operation, components);
  }
  return {
    openapi: "3.1.0",
    info: { title: "Trellis REST API", version: options.version, description: API_DESCRIPTION },
    tags: OPERATION_TAGS.map(({ name, description }) => ({ name, description })),
    paths,
    components: {
      schemas: { ...requests, ...answers },
      responses: Object.fromEntries(
        Object.values(ERROR_RESPONSES).map(({ name, description }) => [
          name,
          { description, content: { "application/json": { schema: { $ref: schemaRef("ErrorBody") } } } },
        ]),
      ),
      parameters: { Workspace: WORKSPACE_PARAMETER },
      securitySchemes: SECURITY_SCHEMES,
    },
    security: [{ apiKey: [] }, { session: [] }],
  };
}
