import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScriptedResponse } from "@/providers/testing/test-llm-server";
import { startRunTestKit, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { testMember } from "@/lib/http/test-members";
import { auditRequestsTo } from "@/lib/audit";
import { createWorkflowService } from "@/lib/workflows/service";
import { workflowEndpoints, type WorkflowEndpoints } from "@/lib/workflows/workflow-endpoints";

/**
 * The code-review retry example (the MCP-bridge seed's reroute rules drawn as a retry edge)
 * through the real run service, its models played by the test LLM server: each agent asks for its
 * tool with the code as the model would write it, and the tools (sandboxed functions) pass or
 * fail on that code, which decides whether Fix Lint goes back to the linter.
 */

let kit: RunTestKit;
let workspaceId: string;
let http: WorkflowEndpoints;
beforeAll(async () => {
  kit = await startRunTestKit();
  workspaceId = await kit.database.createWorkspace();
  http = workflowEndpoints(
    () => createWorkflowService(kit.database.repositories),
    auditRequestsTo(() => kit.database.prisma),
  );
});
afterAll(() => kit.close());

interface ExampleDocument {
  name: string;
  blocks: Array<{ config: Record<string, unknown> }>;
  edges: Array<{ id: string; maxRetries?: number }>;
}

function exampleDocument(): ExampleDocument {
  const document = JSON.parse(
    readFileSync(path.join(process.cwd(), "examples", "code-review-retry.json"), "utf8"),
  ) as ExampleDocument;
  for (const block of document.blocks) if ("model" in block.config) block.config.model = "openai/gpt-4o-mini";
  return document;
}

/** One agent's turn: it calls its tool once with `code`, then answers `text`. */
const turn = (tool: string, code: string, text: string): ScriptedResponse[] => [
  { kind: "tool-calls", calls: [{ name: tool, arguments: { code } }] },
  { kind: "text", text },
];

async function runExample(code: string, script: ScriptedResponse[]) {
  const workflow = await kit.database.repositories.workflows.create(workspaceId, exampleDocument() as never);
  kit.server.enqueue(...script);
  const live = await kit.runtime.runs.start(workspaceId, workflow.id, { code });
  await live.done;
  const run = await kit.database.repositories.runs.getWithSpans(workspaceId, live.runId);
  const blockSpans = (run?.spans ?? []).filter((span) => span.kind === "block");
  const attempts = (blockId: string) =>
    blockSpans.filter((span) => span.blockId === blockId).map((span) => span.attempt ?? null);
  return { run: run!, attempts, pending: kit.server.pending() };
}

function save(document: unknown) {
  return http.create(
    new Request("http://localhost/api/workflows", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(document),
    }),
    {},
    testMember(workspaceId),
  );
}

describe("the code-review retry example", () => {
  it("lints, fixes and lints the fix again, then the scan reads the latest fix", async () => {
    const original = "var result = eval(input);";
    const fixed = "let result = eval(input);";
    const { run, attempts, pending } = await runExample(original, [
      ...turn("run_linter", original, "The linter found problems."),
      ...turn("fix_lint", original, fixed),
      ...turn("run_linter", fixed, "No lint problems."),
      ...turn("security_scanner", fixed, "eval() runs arbitrary code."),
    ]);
    expect(run.status).toBe("succeeded");
    expect(run.output).toEqual({ status: "security_issues", review: "eval() runs arbitrary code." });
    // Each pass of the cycle is in the trace with its attempt number; what follows it ran once.
    expect(attempts("linter")).toEqual([1, 2]);
    // The second pass skips Fix Lint (the lint was clean), which ends the cycle.
    expect(attempts("fix_lint")).toEqual([1]);
    expect(attempts("security_scan")).toEqual([null]);
    expect(attempts("lint_gave_up")).toEqual([]);
    expect(pending).toBe(0);
  });

  it("leaves by retriesExhausted after three retries, with the last fix", async () => {
    const code = "var x = 1; if (x == '1') {}";
    const pass = [...turn("run_linter", code, "The linter found problems."), ...turn("fix_lint", code, "still var")];
    const { run, attempts, pending } = await runExample(code, [...pass, ...pass, ...pass, ...pass]);
    expect(run.status).toBe("succeeded");
    expect(run.output).toEqual({ status: "lint_failed", lastFix: "still var" });
    expect(attempts("linter")).toEqual([1, 2, 3, 4]);
    expect(attempts("fix_lint")).toEqual([1, 2, 3, 4]);
    expect(attempts("security_scan")).toEqual([]);
    expect(pending).toBe(0);
  });

  it("saves as written; an uncapped edge back is refused naming the cycle, and a cap over 100 is refused", async () => {
    expect((await save(exampleDocument())).status).toBe(201);

    const uncapped = exampleDocument();
    delete uncapped.edges.find((edge) => edge.id === "e_fix_linter")!.maxRetries;
    uncapped.edges = uncapped.edges.filter((edge) => edge.id !== "e_fix_gave_up");
    const refused = await save(uncapped);
    expect(refused.status).toBe(400);
    const { error } = (await refused.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("invalid_workflow");
    expect(error.message).toContain("A cycle runs through 'Linter' → 'Fix Lint' → 'Linter'");
    expect(error.message).toContain("maxRetries");

    const tooMany = exampleDocument();
    tooMany.edges.find((edge) => edge.id === "e_fix_linter")!.maxRetries = 101;
    const capped = await save(tooMany);
    expect(capped.status).toBe(400);
    expect(JSON.stringify(await capped.json())).toContain("must be at most 100");
  });
});
