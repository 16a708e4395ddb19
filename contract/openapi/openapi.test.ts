import { compileErrors, validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { OpenAPIV3_1 } from "openapi-types";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { API_OPERATIONS } from "./catalog";
import { REQUEST_COMPONENTS } from "./components";
import { buildOpenApiDocument, type JsonSchema, type OpenApiDocument } from "./generate";
import { errorStatusesOf, type ApiOperation } from "./operation";

const document = buildOpenApiDocument(API_OPERATIONS, { version: "0.0.0-test" });

/**
 * Every component schema compiled by a JSON Schema 2020-12 validator (the dialect of OpenAPI 3.1),
 * strict, so a keyword zod writes that is not JSON Schema fails here. The components are bundled
 * as `$defs` of one schema so their `$ref`s resolve.
 */
function componentValidator(doc: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  const bundled = JSON.parse(
    JSON.stringify(doc.components.schemas).replaceAll('"#/components/schemas/', '"trellis-components#/$defs/'),
  ) as Record<string, JsonSchema>;
  ajv.addSchema({ $id: "trellis-components", $defs: bundled });
  return (name: string) => ajv.compile({ $ref: `trellis-components#/$defs/${name}` });
}

const validatorOf = componentValidator(document);

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1", async () => {
    const result = await validate(structuredClone(document) as unknown as OpenAPIV3_1.Document);
    expect(result.valid ? "" : compileErrors(result)).toBe("");
    expect(result.specification).toBe("OpenAPI");
    expect(document.openapi).toBe("3.1.0");
  });

  it("has schemas a JSON Schema 2020-12 validator compiles, every $ref resolving", () => {
    for (const name of Object.keys(document.components.schemas)) expect(() => validatorOf(name), name).not.toThrow();
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"([^"]+)"/g)].map((match) => match[1]!);
    const missing = refs.filter((ref) => {
      const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
      return (
        !section || !name || !(name in (document.components[section as keyof OpenApiDocument["components"]] ?? {}))
      );
    });
    expect(missing).toEqual([]);
  });

  it("asks for credentials everywhere but on the public operations", () => {
    expect(document.security).toEqual([{ apiKey: [] }, { session: [] }]);
    expect(document.components.securitySchemes).toMatchObject({
      apiKey: { type: "http", scheme: "bearer", bearerFormat: "trl_…" },
    });
    const publicPaths = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation.security !== undefined)
        .map(([method, operation]) => `${method} ${path} ${JSON.stringify(operation.security)}`),
    );
    expect(publicPaths.sort()).toEqual([
      "get /api/auth/invitations/{token} []",
      "get /api/chat/{chatId} []",
      "get /api/chat/{chatId}/conversations []",
      "get /api/chat/{chatId}/conversations/{conversationId}/messages []",
      "get /api/health []",
      "get /api/health/ready []",
      // Its own bearer token (TRELLIS_METRICS_TOKEN) or loopback, not a user's credentials.
      "get /api/metrics []",
      "get /api/openapi.json []",
      "post /api/auth/invitations/{token} []",
      "post /api/chat/{chatId}/access []",
      "post /api/chat/{chatId}/conversations/{conversationId}/asks/{spanId} []",
      "post /api/chat/{chatId}/conversations/{conversationId}/stop []",
      "post /api/chat/{chatId}/messages []",
      "post /api/hooks/{hookId} []",
    ]);
  });

  it("lists each operation's error statuses as shared responses with the contract's error body", () => {
    const update = document.paths["/api/workflows/{id}"]?.put;
    expect(Object.keys(update?.responses ?? {})).toEqual([
      "200",
      "400",
      "401",
      "403",
      "404",
      "409",
      "413",
      "415",
      "421",
      "500",
    ]);
    expect(update?.responses["409"]).toEqual({ $ref: "#/components/responses/Conflict" });
    expect(errorStatusesOf(API_OPERATIONS.find((operation) => operation.operationId === "health")!)).toEqual([
      421, 500,
    ]);
    const errorBody = validatorOf("ErrorBody");
    expect(errorBody({ error: { code: "not_found", message: 'Workflow "x" was not found', details: [] } })).toBe(true);
    expect(errorBody({ code: "not_found", message: "flat" })).toBe(false);
  });
});

describe("request bodies as JSON Schema", () => {
  const withExamples = API_OPERATIONS.filter((operation) => operation.request?.example !== undefined);

  it.each(withExamples.map((operation) => [operation.operationId, operation] as const))(
    "%s: its example is accepted by the route's zod schema and by the generated schema",
    (_id, operation) => {
      const request = operation.request!;
      const name = Object.entries(REQUEST_COMPONENTS).find(([, schema]) => schema === request.schema)![0];
      const example = JSON.parse(JSON.stringify(request.example)) as unknown;
      expect(request.schema.safeParse(example).error).toBeUndefined();
      const check = validatorOf(name);
      expect(check(example), JSON.stringify(check.errors)).toBe(true);
      expect(
        document.paths[operation.path]?.[operation.method.toLowerCase()]?.requestBody?.content["application/json"]
          ?.example,
      ).toEqual(example);
    },
  );

  it("refuses what the route refuses: a misspelt field of a strict body, a reserved input key, a missing required field", () => {
    const startRun = validatorOf("StartRunRequest");
    expect(startRun({ inputs: { message: "hi" } })).toBe(false);
    expect(startRun(JSON.parse('{ "input": { "constructor": 1 } }'))).toBe(false);
    expect(startRun(JSON.parse('{ "input": { "__proto__": { "polluted": true } } }'))).toBe(false);
    expect(startRun({})).toBe(true);
    const document = validatorOf("WorkflowDocument");
    expect(document({ blocks: [] })).toBe(false);
    expect(document({ name: "Defaults left out" })).toBe(true);
    expect(validatorOf("ApprovalDecision")({ approved: "yes" })).toBe(false);
  });

  it("names a schema components.ts does not after its operation, refuses a name taken twice, and fails on a schema with no JSON Schema", () => {
    const [listWorkflows] = API_OPERATIONS;
    const unnamed: ApiOperation = {
      ...listWorkflows!,
      answers: [{ status: 200, description: "x", schema: z.object({ id: z.string() }) }],
    };
    const named = buildOpenApiDocument([unnamed], { version: "0" });
    expect(named.paths["/api/workflows"]?.get?.responses["200"]).toMatchObject({
      content: { "application/json": { schema: { $ref: "#/components/schemas/ListWorkflowsAnswer" } } },
    });
    expect(named.components.schemas.ListWorkflowsAnswer).toMatchObject({
      type: "object",
      properties: { id: { type: "string" } },
    });
    const twice: ApiOperation = {
      ...unnamed,
      method: "POST",
      answers: [{ status: 200, description: "x", schema: z.object({ other: z.string() }) }],
    };
    expect(() => buildOpenApiDocument([unnamed, twice], { version: "0" })).toThrow(
      /ListWorkflowsAnswer names two schemas/,
    );
    const unrepresentable: ApiOperation = {
      ...listWorkflows!,
      parameters: [{ name: "big", in: "query", description: "x", schema: z.bigint() }],
    };
    expect(() => buildOpenApiDocument([unrepresentable], { version: "0" })).toThrow(/BigInt cannot be represented/);
  });
});
