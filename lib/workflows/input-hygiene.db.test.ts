import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, RESERVED_HEADER_MESSAGE, RESERVED_NAME_MESSAGE } from "@/contract";
import { testMember } from "@/lib/http/test-members";
import { startRunTestKit, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { createWorkflowService } from "./service";
import { workflowEndpoints, type WorkflowEndpoints } from "./workflow-endpoints";
import { auditRequestsTo } from "@/lib/audit";

/**
 * Hostile and careless input at the API's doors: deep JSON, reserved names and headers. Each is
 * answered 400 with a message saying what and where, never 500, and nothing is stored or run.
 */

let kit: RunTestKit;
let http: WorkflowEndpoints;
let workspaceId: string;
const member = () => testMember(workspaceId);

beforeAll(async () => {
  kit = await startRunTestKit();
  http = workflowEndpoints(
    () => createWorkflowService(kit.database.repositories),
    auditRequestsTo(() => kit.database.prisma),
  );
  workspaceId = await kit.database.createWorkspace();
});
afterAll(() => kit.close());

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const jsonRequest = (url: string, method: string, raw: string) =>
  new Request(url, { method, headers: { "content-type": "application/json", accept: "application/json" }, body: raw });
const createWorkflow = (raw: string) =>
  http.create(jsonRequest("http://localhost/api/workflows", "POST", raw), {}, member());
const updateWorkflow = (id: string, raw: string) =>
  http.update(jsonRequest(`http://localhost/api/workflows/${id}`, "PUT", raw), { id }, member());
const startRun = (workflowId: string, raw: string) =>
  kit.endpoints.start(
    jsonRequest(`http://localhost/api/workflows/${workflowId}/runs`, "POST", raw),
    { id: workflowId },
    member(),
  );

async function errorOf(response: Response) {
  return (
    (await response.json()) as {
      error: { code: string; message: string; details: Array<{ path: string; message: string }> };
    }
  ).error;
}

const start = (inputs: unknown[] = [{ name: "message", type: "string" }]) => ({
  id: "start",
  type: "start",
  name: "Start",
  config: { inputs },
});
const respond = (data: unknown = "<start.message>") => ({
  id: "respond",
  type: "response",
  name: "Respond",
  config: { data },
});
const document = (blocks: unknown[], extra: Record<string, unknown> = {}) => ({
  name: "Hygiene",
  blocks,
  edges: blocks
    .slice(1)
    .map((block, index) => ({ id: `e${index}`, source: "start", target: (block as { id: string }).id })),
  ...extra,
});
const stored = () => kit.database.prisma.workflow.count({ where: { workspaceId } });

describe("deep JSON", () => {
  it("refuses a block config nested 5,000 levels deep with 400 invalid_json naming the limit and where, on create and update", async () => {
    const raw = JSON.stringify(document([start(), respond("placeholder")])).replace('"placeholder"', nested(5_000));
    const before = await stored();
    const created = await createWorkflow(raw);
    expect(created.status).toBe(400);
    const error = await errorOf(created);
    expect(error.code).toBe("invalid_json");
    expect(error.message).toBe(
      `The request body is nested deeper than the limit of ${MAX_JSON_DEPTH} levels (at blocks[1].config.data[0][0]…[0][0]).`,
    );
    expect(error.details[0]?.path).toBe("blocks[1].config.data[0][0]…[0][0]");
    expect(await stored()).toBe(before);

    const saved = (await (await createWorkflow(JSON.stringify(document([start(), respond()])))).json()) as {
      id: string;
      version: number;
    };
    const updated = await updateWorkflow(saved.id, raw.replace('{"name"', `{"version":${saved.version},"name"`));
    expect(updated.status).toBe(400);
    expect((await errorOf(updated)).code).toBe("invalid_json");
  });

  it("keeps nesting a real workflow uses, and a large but shallow document (100,000 keys, a 4 MB string)", async () => {
    const schemaDepth = (depth: number): unknown =>
      depth === 0 ? { type: "string" } : { type: "object", properties: { inner: schemaDepth(depth - 1) } };
    const agent = {
      id: "agent",
      type: "agent",
      name: "Agent",
      config: { userPrompt: "<start.message>", responseFormat: schemaDepth(20) },
    };
    expect((await createWorkflow(JSON.stringify(document([start(), agent])))).status).toBe(201);

    const wide = Object.fromEntries(
      Array.from({ length: 100_000 }, (_, index) => [`k${index}`, index % 2 ? "<start.message>" : [index]]),
    );
    expect((await createWorkflow(JSON.stringify(document([start(), respond(wide)])))).status).toBe(201);
    // Half-written references and brackets in text: what the reference and expression scanners must get through.
    const long = `${"<a.b ".repeat(200_000)}${'x[{"'.repeat(500_000)}`;
    expect((await createWorkflow(JSON.stringify(document([start(), respond(long)])))).status).toBe(201);
  });

  it("refuses run input nested too deep with 400 and starts nothing", async () => {
    const workflow = await kit.database.repositories.workflows.create(
      workspaceId,
      document([start(), respond()]) as never,
    );
    const response = await startRun(workflow.id, `{"input":{"message":"hi","extra":${nested(5_000)}}}`);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error).toMatchObject({ code: "invalid_json", details: [{ path: "input.extra[0][0][0][0]…[0][0]" }] });
    expect(await kit.database.prisma.run.count({ where: { workflowId: workflow.id } })).toBe(0);
  });
});

describe("reserved names", () => {
  it("refuses a start input named __proto__, constructor or prototype at save, naming the field and why", async () => {
    for (const name of ["__proto__", "constructor", "prototype"]) {
      const response = await createWorkflow(
        JSON.stringify(document([start([{ name: "message" }, { name }]), respond()])),
      );
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.code).toBe("invalid_workflow");
      expect(error.details).toEqual([
        {
          path: "blocks[0].config.inputs[1].name",
          message: `Block 'Start': Inputs, item 2, name: ${RESERVED_NAME_MESSAGE}`,
        },
      ]);
      expect(error.message).toContain("is a reserved name");
    }
  });

  it("refuses a reserved workflow variable name, and a __proto__ key anywhere in the document", async () => {
    const variable = await createWorkflow(
      JSON.stringify(document([start(), respond()], { variables: { tone: "warm", constructor: "x" } })),
    );
    expect(variable.status).toBe(400);
    expect((await errorOf(variable)).details).toEqual([
      { path: "variables.constructor", message: RESERVED_NAME_MESSAGE },
    ]);

    const proto = await createWorkflow(
      JSON.stringify(document([start(), respond({ ok: 1 })])).replace(
        '{"ok":1}',
        '{"ok":1,"__proto__":{"admin":true}}',
      ),
    );
    expect(proto.status).toBe(400);
    expect(await errorOf(proto)).toMatchObject({
      code: "invalid_request",
      message:
        'The request body uses "__proto__" as a key (at blocks[1].config.data.__proto__), which is reserved: copying it would replace an object\'s prototype.',
    });
  });

  it("refuses run input keys that are reserved names with 400 and starts nothing", async () => {
    const workflow = await kit.database.repositories.workflows.create(
      workspaceId,
      document([start(), respond()]) as never,
    );
    const constructor = await startRun(workflow.id, JSON.stringify({ input: { message: "hi", constructor: "x" } }));
    expect(constructor.status).toBe(400);
    expect(await errorOf(constructor)).toMatchObject({
      code: "invalid_request",
      message: `The run request is invalid: input.constructor: ${RESERVED_NAME_MESSAGE}`,
    });
    const proto = await startRun(workflow.id, '{"input":{"message":"hi","__proto__":"x"}}');
    expect(proto.status).toBe(400);
    expect((await errorOf(proto)).details).toEqual([
      { path: "input.__proto__", message: expect.stringContaining("reserved") as unknown },
    ]);
    expect(await kit.database.prisma.run.count({ where: { workflowId: workflow.id } })).toBe(0);

    const fine = await startRun(
      workflow.id,
      JSON.stringify({ input: { message: "hi", note: { constructor: "data may use it" } }, wait: true }),
    );
    expect(await fine.json()).toMatchObject({ status: "succeeded", output: "hi" });
  });
});

describe("reserved output keys", () => {
  it("refuses an evaluator metric whose output key would be constructor or prototype at save, in any case", async () => {
    for (const name of ["Constructor", "prototype"]) {
      const metrics = [
        { name: "Quality", range: { min: 1, max: 5 } },
        { name, range: { min: 1, max: 5 } },
      ];
      const evaluator = {
        id: "judge",
        type: "evaluator",
        name: "Judge",
        config: { content: "<start.message>", metrics },
      };
      const response = await createWorkflow(JSON.stringify(document([start(), evaluator])));
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.code).toBe("invalid_workflow");
      expect(error.details).toEqual([
        {
          path: "blocks[1].config.metrics[1].name",
          message: `Block 'Judge': Metrics, item 2, name: becomes an output key that ${RESERVED_NAME_MESSAGE}`,
        },
      ]);
    }
  });
});

describe("reserved headers", () => {
  it("refuses an API block that sets Host at save, naming the header", async () => {
    const api = {
      id: "api",
      type: "api",
      name: "Call",
      config: { url: "https://api.example.com/items", headers: { Accept: "text/plain", Host: "internal" } },
    };
    const response = await createWorkflow(JSON.stringify(document([start(), api])));
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({
      code: "invalid_workflow",
      message: `The workflow is invalid: Block 'Call': Headers, Host: ${RESERVED_HEADER_MESSAGE}`,
    });
  });
});
