import { describe, expect, it } from "vitest";
import type { BlockRunState } from "@/components/editor/store";
import { isEdgeTaken } from "./edges-taken";

const state = (status: BlockRunState["status"], extra: Partial<BlockRunState> = {}): BlockRunState => ({
  status,
  text: "",
  ...extra,
});

describe("edges taken by a run", () => {
  const blocks = {
    router: state("succeeded"),
    support: state("running"),
    sales: state("skipped"),
    api: state("failed", { handled: true }),
    fallback: state("succeeded"),
    after: state("pending"),
    loop: state("running"),
    child: state("succeeded"),
  };

  it("lights the path to a block that ran, not the one skipped or not yet reached", () => {
    expect(isEdgeTaken(blocks, { source: "router", target: "support", sourceHandle: "out" })).toBe(true);
    expect(isEdgeTaken(blocks, { source: "router", target: "sales", sourceHandle: "out" })).toBe(false);
    expect(isEdgeTaken(blocks, { source: "fallback", target: "after", sourceHandle: "out" })).toBe(false);
  });

  it("follows an error edge only after a handled failure", () => {
    expect(isEdgeTaken(blocks, { source: "api", target: "fallback", sourceHandle: "error" })).toBe(true);
    expect(isEdgeTaken(blocks, { source: "api", target: "fallback", sourceHandle: "out" })).toBe(false);
    expect(isEdgeTaken(blocks, { source: "router", target: "support", sourceHandle: "error" })).toBe(false);
  });

  it("lights a container's body edge while the container runs", () => {
    expect(isEdgeTaken(blocks, { source: "loop", target: "child", sourceHandle: "body" })).toBe(true);
    expect(isEdgeTaken(blocks, { source: "loop", target: "child", sourceHandle: "out" })).toBe(false);
  });

  it("lights only the tool-outcome handle the agent's last call of that tool left by", () => {
    const lint = {
      type: "agent",
      config: { tools: [{ type: "run_function", name: "run_linter", routeOnOutcome: true }] },
    };
    const failedLint = state("succeeded", {
      output: {
        content: "",
        toolCalls: { list: [{ name: "run_linter", error: { code: "sandbox_error", message: "lint" } }], count: 1 },
        toolOutcomes: { run_linter: "error" },
      },
    });
    const runs = { linter: failedLint, fix: state("succeeded"), scan: state("succeeded") };
    expect(
      isEdgeTaken(runs, { source: "linter", target: "fix", sourceHandle: "tool:run_linter:error" }, () => lint),
    ).toBe(true);
    expect(
      isEdgeTaken(runs, { source: "linter", target: "scan", sourceHandle: "tool:run_linter:success" }, () => lint),
    ).toBe(false);
    expect(isEdgeTaken(runs, { source: "linter", target: "scan", sourceHandle: "out" }, () => lint)).toBe(true);
  });

  it("lights a condition block's edge only for the branch it chose, even when the target ran by another way", () => {
    const check = { type: "condition", config: { branches: [{ id: "yes", expression: "true" }, { id: "no" }] } };
    const runs = { check: state("succeeded", { output: { selectedBranch: "yes" } }), both: state("succeeded") };
    expect(isEdgeTaken(runs, { source: "check", target: "both", sourceHandle: "branch:yes" }, () => check)).toBe(true);
    expect(isEdgeTaken(runs, { source: "check", target: "both", sourceHandle: "branch:no" }, () => check)).toBe(false);
  });

  it("lights an edge with a condition only when the condition held over the source's output", () => {
    const api = { type: "api", config: { url: "https://example.com", method: "GET" } };
    const runs = {
      api: state("succeeded", { output: { status: 200 } }),
      ok: state("succeeded"),
      failed: state("failed", { handled: true, error: { code: "http_error", message: "500" } }),
      next: state("succeeded"),
    };
    expect(isEdgeTaken(runs, { source: "api", target: "ok", condition: "output.status == 200" }, () => api)).toBe(true);
    expect(isEdgeTaken(runs, { source: "api", target: "ok", condition: "output.status >= 400" }, () => api)).toBe(
      false,
    );
    expect(isEdgeTaken(runs, { source: "api", target: "ok", condition: "output.body.size > 1" }, () => api)).toBe(
      false,
    );
    expect(isEdgeTaken(runs, { source: "api", target: "ok", condition: "output.status ==" }, () => api)).toBe(false);
    expect(
      isEdgeTaken(runs, {
        source: "failed",
        target: "next",
        sourceHandle: "error",
        condition: "output.error.code == 'http_error'",
      }),
    ).toBe(true);
    expect(
      isEdgeTaken(runs, {
        source: "failed",
        target: "next",
        sourceHandle: "error",
        condition: "output.error.code == 'timeout'",
      }),
    ).toBe(false);
  });
});
