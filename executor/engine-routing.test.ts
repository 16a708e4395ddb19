import { describe, expect, it } from "vitest";
import { block, edge, workflow } from "./__fixtures__/fake-blocks";
import { runHarness } from "./__fixtures__/run-harness";

const condition = (branches: Array<{ id: string; expression?: string }>) => block("check", "condition", { branches });

describe("engine: conditions and routers", () => {
  it("takes the first true branch and skips everything reachable only through the others", async () => {
    const document = workflow(
      [
        block("start", "start"),
        condition([
          { id: "high", expression: "<start.score> >= 80" },
          { id: "mid", expression: "<start.score> >= 50" },
          { id: "low" },
        ]),
        block("a", "task"),
        block("b", "task"),
        block("b2", "task"),
        block("c", "task"),
      ],
      [
        edge("start", "check"),
        edge("check", "a", "branch:high"),
        edge("check", "b", "branch:mid"),
        edge("b", "b2"),
        edge("check", "c", "branch:low"),
      ],
    );
    const run = await runHarness(document, { input: { score: 60 } });
    expect(run.completed("check")[0]).toMatchObject({ output: { selectedBranch: "mid" } });
    expect(run.log.calls.map((call) => call.blockId)).toEqual(["b", "b2"]);
    expect(new Set(run.skipped)).toEqual(new Set(["a", "c"]));
  });

  it("runs a block once when two branches lead to it", async () => {
    const document = workflow(
      [block("start", "start"), condition([{ id: "x", expression: "true" }, { id: "y" }]), block("target", "task")],
      [edge("start", "check"), edge("check", "target", "branch:x"), edge("check", "target", "branch:y")],
    );
    const run = await runHarness(document);
    expect(run.started("target")).toHaveLength(1);
    expect(run.skipped).toEqual([]);
  });

  it("skips every branch when none matches and there is no else, and still succeeds", async () => {
    const document = workflow(
      [
        block("start", "start"),
        condition([
          { id: "x", expression: "1 > 2" },
          { id: "y", expression: "'a' == 'b'" },
        ]),
        block("a", "task"),
        block("b", "task"),
        block("after", "task"),
      ],
      [edge("start", "check"), edge("check", "a", "branch:x"), edge("check", "b", "branch:y"), edge("a", "after")],
    );
    const run = await runHarness(document);
    expect(run.result.status).toBe("succeeded");
    expect(new Set(run.skipped)).toEqual(new Set(["a", "b", "after"]));
    expect(run.result.output).toEqual({ selectedBranch: null });
  });

  it("treats a chosen branch with no edges as the end of that path", async () => {
    const document = workflow(
      [
        block("start", "start"),
        condition([{ id: "unwired", expression: "true" }, { id: "else" }]),
        block("elsePath", "task"),
      ],
      [edge("start", "check"), edge("check", "elsePath", "branch:else")],
    );
    const run = await runHarness(document);
    expect(run.result).toMatchObject({ status: "succeeded", output: { selectedBranch: "unwired" } });
    expect(run.skipped).toEqual(["elsePath"]);
  });

  it("follows a router's choice and skips the other candidates and what follows them", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("route", "router", { route: "billing" }),
        block("billing", "task"),
        block("tech", "task"),
        block("techNext", "task"),
      ],
      [edge("start", "route"), edge("route", "billing"), edge("route", "tech"), edge("tech", "techNext")],
    );
    const run = await runHarness(document);
    expect(run.log.calls.map((call) => call.blockId)).toEqual(["billing"]);
    expect(new Set(run.skipped)).toEqual(new Set(["tech", "techNext"]));
  });

  it("fails a router that chooses a block it is not connected to", async () => {
    const document = workflow(
      [block("start", "start"), block("route", "router", { route: "nowhere" }), block("billing", "task")],
      [edge("start", "route"), edge("route", "billing")],
    );
    const run = await runHarness(document);
    expect(run.result.status).toBe("failed");
    expect(run.result.error?.message).toContain(
      `chose route "nowhere", which is not one of its connected blocks ('billing')`,
    );
  });

  it("evaluates a branch over a quoted reference, helpers and arithmetic", async () => {
    const document = workflow(
      [
        block("start", "start"),
        condition([
          { id: "match", expression: `contains(lower("<start.text>"), 'refund') && length(<start.items>) * 2 == 6` },
          { id: "else" },
        ]),
        block("yes", "task"),
        block("no", "task"),
      ],
      [edge("start", "check"), edge("check", "yes", "branch:match"), edge("check", "no", "branch:else")],
    );
    const run = await runHarness(document, { input: { text: 'I want a "REFUND"', items: [1, 2, 3] } });
    expect(run.log.calls.map((call) => call.blockId)).toEqual(["yes"]);
  });

  it("follows only the handles a block's output says it left by, and skips the rest", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("pick", "picker", { offers: ["choice:yes", "choice:no"], handles: ["choice:no", "out"] }),
        block("yes", "task"),
        block("no", "task"),
        block("always", "task"),
      ],
      [
        edge("start", "pick"),
        edge("pick", "yes", "choice:yes"),
        edge("pick", "no", "choice:no"),
        edge("pick", "always"),
      ],
    );
    const run = await runHarness(document);
    expect(run.log.calls.map((call) => call.blockId).sort()).toEqual(["always", "no"]);
    expect(run.skipped).toEqual(["yes"]);
  });
});
