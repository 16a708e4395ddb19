import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PendingAsk } from "@/contract";
import type { ScriptedResponse } from "@/providers/testing/test-llm-server";
import { startBridgeMcpServer } from "./__fixtures__/bridge-mcp-server";
import { fixture, startImportRunKit, type ImportRunKit } from "./__fixtures__/import-run-kit";

/**
 * Seed 004's MCP-bridge workflows imported through the endpoint and run on the real engine: each
 * agent's tools come from a real MCP server (the fixture, configured as `bridge`), the models are
 * the test LLM server, and what the tools answer decides the reroutes.
 */

let kit: ImportRunKit;
let mcp: Awaited<ReturnType<typeof startBridgeMcpServer>>;

beforeAll(async () => {
  mcp = await startBridgeMcpServer();
  kit = await startImportRunKit({
    processEnv: { TRELLIS_MCP_SERVERS: JSON.stringify({ bridge: { transport: "http", url: mcp.url } }) },
    mcpServers: ["bridge"],
  });
});
afterAll(async () => {
  await kit?.close();
  await mcp?.close();
});

/** One agent's turn: it calls its tool once with `args`, then answers `text`. */
const turn = (tool: string, args: Record<string, unknown>, text: string): ScriptedResponse[] => [
  { kind: "tool-calls", calls: [{ name: tool, arguments: args }] },
  { kind: "text", text },
];

const ran = (run: { spans: Array<{ kind: string; blockId: string | null }> }, blockId: string) =>
  run.spans.filter((span) => span.kind === "block" && span.blockId === blockId).length;

describe("MCP-bridge workflows, imported and run", () => {
  it("customer-support: the classifier's MCP tool result reaches the responder, which depends on it", async () => {
    const { workflow, report } = await kit.importFile(fixture("mcp-bridge/customer-support.json"));
    expect(report.notMapped).toEqual([]);
    expect(workflow.issues).toEqual([]);
    kit.kit.server.enqueue(
      ...turn("categorize_issue", { message: "My order hasn't arrived yet" }, "This is a shipping issue."),
      ...turn("draft_response", { category: "shipping" }, "Sorry about the delay: your order ships today."),
    );

    const run = await kit.run(workflow.id, { message: "My order hasn't arrived yet" });

    expect(run.status).toBe("succeeded");
    expect((run.output as { content: string }).content).toBe("Sorry about the delay: your order ships today.");
    expect(mcp.calls.slice(-2)).toEqual(["categorize_issue", "draft_response"]);
    const responderPrompt = kit.kit.server.requests.at(-2)!.parsed.userTexts.join("\n");
    expect(responderPrompt).toContain("Request: My order hasn't arrived yet");
    expect(responderPrompt).toContain("Result of classifier: This is a shipping issue.");
    expect(kit.kit.server.pending()).toBe(0);
  });

  it("code-review: a clean lint reroutes to the security scan (tool:run_linter:success), a failed one to fix-lint-errors", async () => {
    const { workflow, report } = await kit.importFile(fixture("mcp-bridge/code-review.json"));
    expect(report.notMapped).toEqual([
      expect.objectContaining({ what: "agents[1].reroute.on.tool:fix_lint:success (tool:fix_lint:success → linter)" }),
    ]);

    kit.kit.server.enqueue(
      ...turn("run_linter", { code: "const x = 1;" }, "Lint is clean."),
      ...turn("security_scanner", { code: "const x = 1;" }, "No findings."),
    );
    const clean = await kit.run(workflow.id, { message: "const x = 1;" });
    expect(clean.status).toBe("succeeded");
    expect((clean.output as { content: string }).content).toBe("No findings.");
    expect([ran(clean, "linter"), ran(clean, "security-scan"), ran(clean, "fix-lint-errors")]).toEqual([1, 1, 0]);

    kit.kit.server.enqueue(
      ...turn("run_linter", { code: "var x = 1;" }, "Lint failed."),
      ...turn("fix_lint", { code: "var x = 1;" }, "let x = 1;"),
    );
    const dirty = await kit.run(workflow.id, { message: "var x = 1;" });
    expect(dirty.status).toBe("succeeded");
    expect((dirty.output as { content: string }).content).toBe("let x = 1;");
    expect([ran(dirty, "linter"), ran(dirty, "security-scan"), ran(dirty, "fix-lint-errors")]).toEqual([1, 0, 1]);
    expect(kit.kit.server.pending()).toBe(0);
  });

  it("multi-source-analysis: three agents start together and combine waits for all of them", async () => {
    const { workflow } = await kit.importFile(fixture("mcp-bridge/multi-source-analysis.json"), {
      mcpServer: "bridge",
    });
    const combine = workflow.blocks.find((block) => block.id === "combine")!;
    expect(workflow.edges.filter((edge) => edge.target === "combine").map((edge) => edge.source)).toEqual([
      "fetch-db",
      "fetch-api",
      "fetch-files",
    ]);

    const run = await kit.run(workflow.id, { message: "Quarterly numbers" });

    expect(run.status).toBe("succeeded");
    expect(ran(run, "combine")).toBe(1);
    expect(String(combine.config.userPrompt)).toContain(
      'Result of fetch-files: <fetch-files.content ?? "(did not run)">',
    );
    expect((run.output as { content: string }).content).toContain("Result of fetch-db: Echo:");
  });

  it("deployment-plan: the agent's PLAN_FOUND tag asks the user, and the chosen answer runs its agent", async () => {
    const { workflow, report } = await kit.importFile(fixture("mcp-bridge/deployment-plan.json"));
    expect(report.notMapped.map((item) => item.what)).toEqual([
      "agents[0].reroute[0].ask.expected_responses[0].choose_plan.with",
    ]);
    kit.kit.server.enqueue(
      {
        kind: "text",
        text: "I found plan deploy-123. Proceed, keep searching, or abort?\n<reroute>PLAN_FOUND</reroute>",
      },
      { kind: "text", text: "Deploying plan deploy-123." },
    );

    const live = await kit.kit.runtime.runs.start(kit.member.workspace.id, workflow.id, {
      message: "Deploy the new release",
    });
    const ask = await waitForAsk(live.runId);
    expect(ask.question).toContain("I found plan deploy-123.");
    expect(ask.choices.map((choice) => choice.id)).toEqual(["choose_plan", "continue_searching", "abort"]);
    await kit.kit.runtime.runs.asks.answer(
      kit.member.workspace.id,
      live.runId,
      ask.spanId,
      { choice: "choose_plan" },
      "tester@example.com",
    );
    const run = await settled(live.runId);
    expect(run.status).toBe("succeeded");
    expect((run.output as { content: string }).content).toBe("Deploying plan deploy-123.");
    expect([ran(run, "execute_deployment"), ran(run, "create_plan"), ran(run, "cancel_workflow")]).toEqual([1, 0, 0]);
    expect(kit.kit.server.requests.at(-1)!.parsed.userTexts.join("\n")).toContain("The user's answer: choose_plan");
  });
});

async function waitForAsk(runId: string): Promise<PendingAsk> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const run = await kit.kit.database.repositories.runs.get(kit.member.workspace.id, runId);
    if (run.status === "paused") {
      const asks = await kit.kit.runtime.runs.asks.pending(runId);
      if (asks.length > 0) return asks[0]!;
    }
    if (Date.now() > deadline) throw new Error(`run ${runId} never asked (status ${run.status})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The run once it has ended, with its spans. */
async function settled(runId: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const run = await kit.kit.database.repositories.runs.getWithSpans(kit.member.workspace.id, runId);
    if (["succeeded", "failed", "cancelled"].includes(run.status) || Date.now() > deadline) return run;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
