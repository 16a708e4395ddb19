import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScriptedResponse } from "@/providers/testing/test-llm-server";
import { startRunTestKit, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";

/**
 * The tool-reroute example through the real run service, its models played by the test LLM
 * server: each agent asks for its tool with the code as the model would write it, and the tools
 * (sandboxed functions) pass or fail on that code, which decides the route.
 */

let kit: RunTestKit;
let workspaceId: string;
beforeAll(async () => {
  kit = await startRunTestKit();
  workspaceId = await kit.database.createWorkspace();
});
afterAll(() => kit.close());

function exampleDocument() {
  const document = JSON.parse(readFileSync(path.join(process.cwd(), "examples", "tool-reroute.json"), "utf8")) as {
    blocks: Array<{ config: Record<string, unknown> }>;
  };
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
  const ran = (blockId: string) => blockSpans.filter((span) => span.blockId === blockId).length;
  return { run: run!, ran, pending: kit.server.pending() };
}

describe("the tool-reroute example", () => {
  it("goes straight to the security scan when the linter passes, and approves when the scanner passes", async () => {
    const code = "const total = items.length;";
    const { run, ran, pending } = await runExample(code, [
      ...turn("run_linter", code, "No lint problems."),
      ...turn("security_scanner", code, "No security findings."),
    ]);
    expect(run.status).toBe("succeeded");
    expect(run.output).toEqual({ status: "approved", review: "No security findings." });
    expect(ran("linter")).toBe(1);
    expect(ran("fix_lint")).toBe(0);
    expect(ran("security_scan")).toBe(1);
    expect(ran("approved")).toBe(1);
    expect(ran("security_findings")).toBe(0);
    expect(ran("lint_gave_up")).toBe(0);
    expect(pending).toBe(0);
  });

  it("reroutes a lint error to Fix Lint and lints again, then a scanner error to the findings", async () => {
    const original = "var result = eval(input);";
    const fixed = "let result = eval(input);";
    const { run, ran, pending } = await runExample(original, [
      ...turn("run_linter", original, "The linter found problems."),
      ...turn("fix_lint", original, fixed),
      ...turn("run_linter", fixed, "No lint problems."),
      ...turn("security_scanner", fixed, "eval() runs arbitrary code."),
    ]);
    expect(run.status).toBe("succeeded");
    expect(run.output).toEqual({ status: "security_issues", review: "eval() runs arbitrary code." });
    expect(ran("linter")).toBe(2);
    expect(ran("fix_lint")).toBe(1);
    expect(ran("security_scan")).toBe(1);
    expect(ran("security_findings")).toBe(1);
    expect(ran("approved")).toBe(0);
    expect(pending).toBe(0);
  });

  it("gives up after three failed lint attempts: the loop's cap fails it and its error edge answers", async () => {
    const code = "var x = 1; if (x == '1') {}";
    const attempt = [...turn("run_linter", code, "The linter found problems."), ...turn("fix_lint", code, code)];
    const { run, ran, pending } = await runExample(code, [...attempt, ...attempt, ...attempt]);
    expect(run.status).toBe("succeeded");
    expect(run.output).toMatchObject({ status: "lint_failed" });
    expect((run.output as { reason: string }).reason).toContain("limit of 3 iterations");
    expect(ran("linter")).toBe(3);
    expect(ran("fix_lint")).toBe(3);
    expect(ran("security_scan")).toBe(0);
    expect(ran("lint_gave_up")).toBe(1);
    expect(pending).toBe(0);
  });
});
