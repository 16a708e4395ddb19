import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processMetrics } from "@/lib/observability";
import { LIVE_RUN_STATUSES } from "@/contract";
import type { Member } from "@/lib/auth";
import { testMember } from "@/lib/http/test-members";
import { startRunTestKit, supportRoutingDocument, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { deploymentEndpoints } from "@/lib/deployments/deployment-endpoints";
import { createDeploymentService } from "@/lib/deployments/deployment-service";
import { approvalEndpoints } from "@/lib/runs/approval-endpoints";
import { priceEndpoints } from "@/lib/prices/price-endpoints";
import { secretEndpoints } from "@/lib/secrets/secret-endpoints";
import { usageEndpoints } from "@/lib/usage/usage-endpoints";
import { createUsageService } from "@/lib/usage/usage-service";
import { createWorkflowService } from "@/lib/workflows/service";
import { workflowEndpoints, type WorkflowEndpoints } from "@/lib/workflows/workflow-endpoints";
import { systemEndpoints } from "./system-endpoints";
import { processHealthDetails } from "./health-details";
import { databaseProbe } from "./readiness";
import { openApiDocument } from "./openapi-document";
import { auditRequestsTo } from "@/lib/audit";

/**
 * Real answers against the document: each endpoint is called over a test database and what it
 * answers must validate against the schema the document gives that operation and status. The
 * contract's answer types are inferred from those schemas, so the routes cannot build a different
 * shape and compile; this checks the objects they really build, extra fields included.
 */

const document = openApiDocument();
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
ajv.addSchema({
  $id: "trellis-components",
  $defs: JSON.parse(
    JSON.stringify(document.components.schemas).replaceAll('"#/components/schemas/', '"trellis-components#/$defs/'),
  ) as object,
});

/** The validator of an operation's answer with this status, as the document describes it. */
function answerOf(operationId: string, status: number): ValidateFunction {
  const operation = Object.values(document.paths)
    .flatMap((item) => Object.values(item))
    .find((candidate) => candidate.operationId === operationId);
  const response = operation?.responses[String(status)];
  const schema = response && "content" in response ? response.content?.["application/json"]?.schema : undefined;
  const name = schema?.$ref?.split("/").at(-1) ?? (response && "$ref" in response ? "ErrorBody" : undefined);
  if (!name) throw new Error(`${operationId} documents no JSON answer ${status}`);
  return ajv.getSchema(`trellis-components#/$defs/${name}`)!;
}

async function expectDocumented(operationId: string, response: Response, status: number): Promise<unknown> {
  expect(response.status, operationId).toBe(status);
  const body = (await response.json()) as unknown;
  const validate = answerOf(operationId, status);
  expect(validate(body), `${operationId} ${status}: ${JSON.stringify(validate.errors)}`).toBe(true);
  return body;
}

let kit: RunTestKit;
let workflows: WorkflowEndpoints;
let member: Member;
beforeAll(async () => {
  kit = await startRunTestKit();
  member = testMember(await kit.database.createWorkspace(), "editor");
  workflows = workflowEndpoints(
    () => createWorkflowService(kit.database.repositories),
    auditRequestsTo(() => kit.database.prisma),
  );
});
afterAll(() => kit?.close());

const json = (method: string, path: string, body?: unknown) =>
  new Request(`http://localhost${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe("answers as the document describes them", () => {
  it("workflows: create, read, list, update, and an unknown id's error", async () => {
    const created = (await expectDocumented(
      "createWorkflow",
      await workflows.create(json("POST", "/api/workflows", supportRoutingDocument("offline/echo")), {}, member),
      201,
    )) as {
      id: string;
      version: number;
    };
    const id = { id: created.id };
    const stored = await expectDocumented(
      "getWorkflow",
      await workflows.get(json("GET", `/api/workflows/${created.id}`), id, member),
      200,
    );
    await expectDocumented(
      "listWorkflows",
      await workflows.list(json("GET", "/api/workflows?limit=1"), {}, member),
      200,
    );
    await expectDocumented(
      "updateWorkflow",
      await workflows.update(
        json("PUT", `/api/workflows/${created.id}`, { ...(stored as object), version: 1 }),
        id,
        member,
      ),
      200,
    );
    await expectDocumented(
      "getWorkflow",
      await workflows.get(json("GET", "/api/workflows/none"), { id: "none" }, member),
      404,
    );
    await expectDocumented(
      "updateWorkflow",
      await workflows.update(
        json("PUT", `/api/workflows/${created.id}`, { ...(stored as object), version: 1 }),
        id,
        member,
      ),
      409,
    );
  });

  it("runs: start (queued and waited for), read, its document, list, approvals and cancel", async () => {
    const workflowId = (
      await kit.database.repositories.workflows.create(
        member.workspace.id,
        supportRoutingDocument("offline/echo") as never,
      )
    ).id;
    const start = (body: unknown) =>
      kit.endpoints.start(json("POST", `/api/workflows/${workflowId}/runs`, body), { id: workflowId }, member);
    const finished = (await expectDocumented(
      "startRun",
      await start({ input: { message: "I need support" }, wait: true }),
      200,
    )) as { id: string };
    const runId = { id: finished.id };
    await expectDocumented(
      "getRun",
      await kit.endpoints.get(json("GET", `/api/runs/${finished.id}`), runId, member),
      200,
    );
    await expectDocumented(
      "getRunDocument",
      await kit.endpoints.document(json("GET", `/api/runs/${finished.id}/document`), runId, member),
      200,
    );
    await expectDocumented(
      "listRuns",
      await kit.endpoints.list(json("GET", `/api/workflows/${workflowId}/runs`), { id: workflowId }, member),
      200,
    );
    await expectDocumented(
      "listWorkspaceRuns",
      await kit.endpoints.listWorkspace(json("GET", `/api/runs?workflow=${workflowId}`), {}, member),
      200,
    );
    const approvals = approvalEndpoints(() => ({ runs: kit.runtime.runs, repositories: kit.database.repositories }));
    await expectDocumented(
      "listRunApprovals",
      await approvals.list(json("GET", `/api/runs/${finished.id}/approvals`), runId, member),
      200,
    );
    await expectDocumented(
      "cancelRun",
      await kit.endpoints.cancel(json("POST", `/api/runs/${finished.id}/cancel`), runId, member),
      202,
    );
    const queued = (await expectDocumented("startRun", await start({ input: { message: "sales please" } }), 202)) as {
      runId: string;
    };
    // Let it end before the database closes.
    for (
      let tries = 0;
      tries < 200 &&
      LIVE_RUN_STATUSES.includes((await kit.database.repositories.runs.get(member.workspace.id, queued.runId)).status);
      tries++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  });

  it("deployments: deploy, list, read, compare, activate and execute", async () => {
    const deployments = deploymentEndpoints(
      () => createDeploymentService(kit.database.repositories),
      auditRequestsTo(() => kit.database.prisma),
    );
    const workflowId = (
      await kit.database.repositories.workflows.create(
        member.workspace.id,
        supportRoutingDocument("offline/echo") as never,
      )
    ).id;
    const base = `/api/workflows/${workflowId}`;
    const id = { id: workflowId };
    await expectDocumented(
      "executeWorkflow",
      await kit.endpoints.execute(json("POST", `${base}/execute`, {}), id, member),
      409,
    );
    const deployed = (await expectDocumented(
      "createDeployment",
      await deployments.create(json("POST", `${base}/deployments`, { note: "first" }), id, member),
      201,
    )) as {
      id: string;
    };
    const ids = { id: workflowId, deploymentId: deployed.id };
    await expectDocumented(
      "listDeployments",
      await deployments.list(json("GET", `${base}/deployments`), id, member),
      200,
    );
    await expectDocumented(
      "getDeployment",
      await deployments.get(json("GET", `${base}/deployments/${deployed.id}`), ids, member),
      200,
    );
    await expectDocumented(
      "diffDeployments",
      await deployments.diff(json("GET", `${base}/deployments/diff?from=${deployed.id}&to=draft`), id, member),
      200,
    );
    await expectDocumented(
      "activateDeployment",
      await deployments.activate(json("POST", `${base}/deployments/${deployed.id}/activate`), ids, member),
      200,
    );
    const run = { input: { message: "I need support" }, wait: true };
    await expectDocumented(
      "executeWorkflow",
      await kit.endpoints.execute(json("POST", `${base}/execute`, run), id, member),
      200,
    );
  });

  it("system: health, models, tools and names for completion", async () => {
    const system = systemEndpoints({
      toolCatalog: (workspaceId) => kit.runtime.toolCatalog(workspaceId),
      mcpServers: (workspaceId) => kit.runtime.mcpServers(workspaceId),
      secretNames: async () => ["SUPPORT_TOKEN"],
      env: () => undefined,
      healthDetails: () => processHealthDetails({ executingRuns: () => 0 }),
      metrics: () => processMetrics(),
      readinessProbes: () => [
        databaseProbe(async () => {
          if (!ready) throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
        }),
      ],
    });
    let ready = true;
    const get = (path: string) => new Request(`http://localhost${path}`);
    await expectDocumented("health", await system.health(get("/api/health"), {}), 200);
    await expectDocumented("readiness", await system.ready(get("/api/health/ready"), {}), 200);
    ready = false;
    await expectDocumented("readiness", await system.ready(get("/api/health/ready"), {}), 503);
    await expectDocumented("healthDetails", await system.healthDetails(get("/api/health/details"), {}, member), 200);
    await expectDocumented("listTools", await system.tools(get("/api/tools"), {}, member), 200);
    await expectDocumented("listEnvNames", await system.envNames(get("/api/env-names"), {}, member), 200);
    await expectDocumented(
      "listMcpServerTools",
      await system.mcpServerTools(get("/api/tools/mcp/ghost"), { server: "ghost" }, member),
      404,
    );
  });

  it("prices: the models priced for the workspace, an override set, listed, refused and removed", async () => {
    const prices = priceEndpoints(
      () => kit.database.repositories.priceOverrides,
      async () => () => undefined,
      auditRequestsTo(() => kit.database.prisma),
    );
    const admin = testMember(member.workspace.id, "admin");
    const model = { model: "ollama/llama3.2" };
    await expectDocumented(
      "putPriceOverride",
      await prices.put(
        json("PUT", "/api/prices/ollama/llama3.2", { input: 0.1, output: 0.2, note: "GPU box" }),
        model,
        admin,
      ),
      200,
    );
    await expectDocumented("listPriceOverrides", await prices.list(json("GET", "/api/prices"), {}, member), 200);
    const list = (await expectDocumented(
      "listModels",
      await prices.models(json("GET", "/api/models"), {}, member),
      200,
    )) as { catalog: { version: string } };
    expect(list.catalog.version).toMatch(/^\d+\.\d+\.\d+$/);
    await expectDocumented(
      "putPriceOverride",
      await prices.put(json("PUT", "/api/prices/ollama/llama3.2", { input: -1, output: 0 }), model, admin),
      400,
    );
    expect((await prices.remove(json("DELETE", "/api/prices/ollama/llama3.2"), model, admin)).status).toBe(204);
  });

  it("secrets: the list, and a name that is not one", async () => {
    const secrets = secretEndpoints(
      () => kit.database.repositories.secrets,
      auditRequestsTo(() => kit.database.prisma),
    );
    expect(
      (
        await secrets.put(
          json("PUT", "/api/secrets/SUPPORT_TOKEN", { value: "s3cret" }),
          { name: "SUPPORT_TOKEN" },
          member,
        )
      ).status,
    ).toBe(204);
    const listed = (await expectDocumented(
      "listSecrets",
      await secrets.list(json("GET", "/api/secrets"), {}, member),
      200,
    )) as { secrets: unknown[] };
    expect(JSON.stringify(listed)).not.toContain("s3cret");
    await expectDocumented(
      "putSecret",
      await secrets.put(json("PUT", "/api/secrets/lower", { value: "x" }), { name: "lower" }, member),
      400,
    );
  });

  it("usage: the runs above by key, by model and by day, and a bad query", async () => {
    const usage = usageEndpoints(() => createUsageService(kit.database.prisma));
    const get = (query: string) => usage.report(json("GET", `/api/usage?${query}`), {}, member);
    for (const groupBy of ["apiKey", "model", "day"]) {
      const report = (await expectDocumented("getUsage", await get(`groupBy=${groupBy}`), 200)) as { rows: unknown[] };
      expect(report.rows.length, groupBy).toBeGreaterThan(0);
    }
    await expectDocumented("getUsage", await get("groupBy=user"), 400);
  });
});
