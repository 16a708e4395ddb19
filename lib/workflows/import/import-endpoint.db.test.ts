import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IMPORT_FORMAT_LABELS, IMPORT_FORMATS, type ErrorBody, type ImportedWorkflow } from "@/contract";
import { testMember } from "@/lib/http/test-members";
import { createWorkflowService } from "../service";
import { fixture, startImportRunKit, type ImportRunKit } from "./__fixtures__/import-run-kit";
import { bridgeChain, bridgeChainOfBytes } from "./__fixtures__/bridge-chain";
import { importEndpoint } from "./import-endpoint";
import { IMPORT_TIME_BUDGET_SETTING, ImportThreads } from "./import-threads";
import { auditRequestsTo } from "@/lib/audit";

/** POST /api/workflows/import on the real database: what it stores, and the refusals that store nothing. */

let kit: ImportRunKit;
beforeAll(async () => {
  kit = await startImportRunKit();
});
afterAll(() => kit?.close());

const stored = () => kit.kit.database.prisma.workflow.count({ where: { workspaceId: kit.member.workspace.id } });
const errorOf = async (response: Response) => ((await response.json()) as ErrorBody).error;

describe("POST /api/workflows/import", () => {
  it("stores the converted workflow and answers 201 with it, its issues and the report", async () => {
    const before = await stored();
    const response = await kit.post({
      file: fixture("anythingllm/search-and-summarize.json"),
      name: "Imported search",
    });
    expect(response.status).toBe(201);
    const { workflow, report } = (await response.json()) as ImportedWorkflow;
    expect(workflow).toMatchObject({ name: "Imported search", version: 1, issues: [] });
    expect(report.format).toBe("anythingllm-flow");
    expect(report.mapped).toContain("steps[1] (apiCall) → API block 'API searchResults'");
    expect(await stored()).toBe(before + 1);
    const saved = await kit.kit.database.repositories.workflows.get(kit.member.workspace.id, workflow.id);
    expect(saved.blocks.map((block) => block.type)).toEqual(["start", "api", "web", "agent", "response"]);
    // Laid out left to right, one column per step.
    expect(saved.blocks.map((block) => block.position.x)).toEqual([0, 300, 600, 900, 1200]);
  });

  it("imports Trellis's own export as it is", async () => {
    const document = {
      name: "Echo",
      blocks: [
        {
          id: "start",
          type: "start",
          name: "Start",
          position: { x: 0, y: 0 },
          config: { inputs: [{ name: "message", type: "string" }] },
        },
        {
          id: "agent1",
          type: "agent",
          name: "Agent",
          position: { x: 240, y: 0 },
          config: { model: "offline/echo", userPrompt: "<start.message>" },
        },
      ],
      edges: [{ id: "e1", source: "start", target: "agent1" }],
    };
    const response = await kit.post({ file: document });
    expect(response.status).toBe(201);
    const { workflow, report } = (await response.json()) as ImportedWorkflow;
    expect(report).toEqual({ format: "trellis", mapped: ["the Trellis document, as it is"], notMapped: [] });
    expect(workflow.blocks[1]!.position).toEqual({ x: 240, y: 0 });
  });

  it("stores a file whose name the workspace already has under a copy's name, and the report says it was renamed", async () => {
    const document = {
      name: `Twice ${Date.now()}`,
      blocks: [{ id: "start", type: "start", name: "Start", position: { x: 0, y: 0 }, config: {} }],
      edges: [],
    };
    const first = (await (await kit.post({ file: document })).json()) as ImportedWorkflow;
    expect(first.workflow.name).toBe(document.name);
    expect(first.report.renamed).toBeUndefined();
    const second = (await (await kit.post({ file: document })).json()) as ImportedWorkflow;
    expect(second.workflow.name).toBe(`${document.name} (copy)`);
    expect(second.report.renamed).toEqual({ from: document.name, to: `${document.name} (copy)` });
    const third = (await (await kit.post({ file: document })).json()) as ImportedWorkflow;
    expect(third.workflow.name).toBe(`${document.name} (copy 2)`);
  });

  it("refuses a file of no known shape with 400 unknown_format naming every known format, storing nothing", async () => {
    const before = await stored();
    for (const file of [{ nodes: [], connections: {} }, [1, 2], "flow", { steps: "none" }]) {
      const response = await kit.post({ file });
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.code).toBe("unknown_format");
      for (const format of IMPORT_FORMATS) expect(error.message).toContain(IMPORT_FORMAT_LABELS[format]);
    }
    expect(await stored()).toBe(before);
  });

  it("refuses a known format that cannot be converted with 400 naming the path in the file, storing nothing", async () => {
    const before = await stored();
    const broken = {
      flow_id: "broken",
      agents: [{ agent: "writer", description: "Write", depends_on: ["researcher"] }],
    };
    const response = await kit.post({ file: broken });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error).toMatchObject({ code: "invalid_workflow", details: [{ path: "file.agents[0].depends_on[0]" }] });
    expect(error.message).toContain("agents[0].depends_on[0]: no agent is called 'researcher'");

    const badVariable = {
      name: "Flow",
      steps: [{ type: "start", config: { variables: [{ name: "my var", value: "" }] } }],
    };
    const second = await errorOf(await kit.post({ file: badVariable }));
    expect(second.details).toEqual([
      {
        path: "file.steps[0].config.variables[0].name",
        message: expect.stringContaining("'my var' cannot be a Trellis start input name"),
      },
    ]);
    expect(await stored()).toBe(before);
  });

  it("refuses a body without the file, and a viewer, before converting anything", async () => {
    const missing = await kit.post({ name: "No file" });
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).details).toEqual([expect.objectContaining({ path: "file" })]);
    const viewer = await kit.post(
      { file: fixture("anythingllm/data-processing.json") },
      testMember(kit.member.workspace.id, "viewer"),
    );
    expect(viewer.status).toBe(403);
  });

  it("gives MCP-bridge agents no tools when no MCP server is configured, and says so", async () => {
    const response = await kit.post({ file: fixture("mcp-bridge/code-review.json") });
    expect(response.status).toBe(201);
    const { workflow, report } = (await response.json()) as ImportedWorkflow;
    expect(
      workflow.blocks.filter((block) => block.type === "agent").every((block) => block.config.tools === undefined),
    ).toBe(true);
    expect(report.notMapped).toContainEqual({
      what: "agents[0].tools",
      why: expect.stringContaining("no MCP server was chosen"),
    });
    expect(report.notMapped).toContainEqual({
      what: "agents[0].reroute.on.tool:run_linter:success (tool:run_linter:success)",
      why: expect.stringContaining("no tool outcome can route"),
    });
  });

  it("refuses a named MCP server the workspace does not have (404), storing nothing", async () => {
    const before = await stored();
    const response = await kit.post({ file: fixture("mcp-bridge/customer-support.json"), mcpServer: "nowhere" });
    expect(response.status).toBe(404);
    expect((await errorOf(response)).message).toContain("nowhere");
    expect(await stored()).toBe(before);
  });
});

describe("POST /api/workflows/import of large files (issue 30)", () => {
  it("refuses a 1.6 MB chain of agents with 413 naming the block limit, before converting, storing nothing", async () => {
    const before = await stored();
    const file = bridgeChainOfBytes(1_600_000);
    const started = performance.now();
    const response = await kit.post({ file });
    expect(response.status).toBe(413);
    const error = await errorOf(response);
    expect(error.code).toBe("too_large");
    expect(error.message).toContain(`at least ${(file.agents.length + 1).toLocaleString("en-US")} blocks`);
    expect(error.message).toContain("the limit is 2,000");
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await stored()).toBe(before);
  });

  it("refuses a file that would convert past the 5 MB document limit with 413 naming it, storing nothing", async () => {
    const before = await stored();
    const file = bridgeChain(1_900);
    for (const agent of file.agents) agent.description += " ".padEnd(2_400, "word ");
    const response = await kit.post({ file });
    expect(response.status).toBe(413);
    const error = await errorOf(response);
    expect(error.code).toBe("too_large");
    expect(error.message).toMatch(/^The file converts to a workflow document of \d+\.\d MB; the limit is 5\.0 MB/);
    expect(await stored()).toBe(before);
  }, 60_000);

  it("stores a 63 KB chain at a size that grows with the file, answering within 30 s", async () => {
    const file = bridgeChainOfBytes(63_000);
    const started = performance.now();
    const response = await kit.post({ file, name: `Chain ${Date.now()}` });
    const elapsedMs = performance.now() - started;
    expect(response.status).toBe(201);
    const { workflow } = (await response.json()) as ImportedWorkflow;
    expect(workflow.blocks.filter((block) => block.type === "agent")).toHaveLength(file.agents.length);
    // Before: 6.6 MB from 31 KB. Each agent's prompt now quotes a bounded number of results.
    expect(Buffer.byteLength(JSON.stringify(workflow))).toBeLessThan(25 * Buffer.byteLength(JSON.stringify(file)));
    expect(elapsedMs).toBeLessThan(30_000);
  }, 60_000);

  it(`stops a conversion past its time budget with 413 naming the budget and ${IMPORT_TIME_BUDGET_SETTING}, storing nothing`, async () => {
    const before = await stored();
    const threads = new ImportThreads(5);
    const endpoint = importEndpoint(
      () => createWorkflowService(kit.kit.database.repositories),
      () => new Set(),
      auditRequestsTo(() => kit.kit.database.prisma),
      () => threads,
    );
    const text = JSON.stringify({ file: bridgeChainOfBytes(63_000) });
    const response = await endpoint(
      new Request("http://localhost/api/workflows/import", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: text,
      }),
      {},
      kit.member,
    );
    await threads.close();
    expect(response.status).toBe(413);
    const error = await errorOf(response);
    expect(error.message).toBe(
      `The file took longer than the import's time budget of 5 ms to convert and check, and was stopped (${IMPORT_TIME_BUDGET_SETTING}=5).`,
    );
    expect(await stored()).toBe(before);
  }, 60_000);
});
