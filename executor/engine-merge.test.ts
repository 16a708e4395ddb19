import { describe, expect, it } from "vitest";
import { block, edge, workflow } from "./__fixtures__/fake-blocks";
import { runHarness } from "./__fixtures__/run-harness";

/** Start -> Router -> Sales | Support -> one Response that reads whichever agent ran (the seeds' support routing). */
function supportRouting(
  route: "sales" | "support",
  answer = "<Sales Agent.output.content ?? Support Agent.output.content>",
) {
  return workflow(
    [
      block("start", "start"),
      block("router", "router", { route }, { name: "Router" }),
      block("sales", "task", { output: { output: { content: "Pro costs $20" } } }, { name: "Sales Agent" }),
      block(
        "support",
        "task",
        { output: { output: { content: "A refund is on its way" } } },
        { name: "Support Agent" },
      ),
      block("response", "response", { data: { team: "<Router.selectedRoute>", answer } }, { name: "Response" }),
    ],
    [
      edge("start", "router"),
      edge("router", "sales"),
      edge("router", "support"),
      edge("sales", "response"),
      edge("support", "response"),
    ],
  );
}

describe("engine: merging after exclusive branches", () => {
  it("after a router, one response reads whichever branch ran, for either route", async () => {
    const sales = await runHarness(supportRouting("sales"));
    expect(sales.result).toMatchObject({ status: "succeeded", output: { team: "sales", answer: "Pro costs $20" } });
    expect(sales.skipped).toEqual(["support"]);
    expect(sales.started("response")).toHaveLength(1);

    const support = await runHarness(supportRouting("support"));
    expect(support.result).toMatchObject({
      status: "succeeded",
      output: { team: "support", answer: "A refund is on its way" },
    });
    expect(support.skipped).toEqual(["sales"]);
  });

  it("after a condition, a merge works inside text, in a later condition's expression and with a literal default", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("check", "condition", { branches: [{ id: "big", expression: "<start.amount> > 100" }, { id: "else" }] }),
        block("review", "task", { output: { note: "needs review", score: 2 } }, { name: "Review" }),
        block("auto", "task", { output: { note: "approved", score: 9 } }, { name: "Auto" }),
        block("gate", "condition", {
          branches: [{ id: "good", expression: "<Review.score ?? Auto.score> > 5" }, { id: "else" }],
        }),
        block("ok", "task", {
          output: { text: 'Result: <Review.note ?? Auto.note> (<Review.flag ?? Auto.flag ?? "no flag">)' },
        }),
        block("bad", "task", { value: "bad" }),
      ],
      [
        edge("start", "check"),
        edge("check", "review", "branch:big"),
        edge("check", "auto", "branch:else"),
        edge("review", "gate"),
        edge("auto", "gate"),
        edge("gate", "ok", "branch:good"),
        edge("gate", "bad", "branch:else"),
      ],
    );
    const small = await runHarness(document, { input: { amount: 20 } });
    expect(small.result).toMatchObject({ status: "succeeded", output: { text: "Result: approved (no flag)" } });
    const big = await runHarness(document, { input: { amount: 500 } });
    expect(big.result).toMatchObject({ status: "succeeded", output: { value: "bad" } });
    expect(big.skipped).toContain("ok");
  });

  it("passes a whole-field merge raw and takes the first alternative that ran, in the order written", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("check", "condition", { branches: [{ id: "a", expression: "true" }, { id: "b" }] }),
        block("a", "task", { output: { items: [1, 2] } }, { name: "A" }),
        block("b", "task", { output: { items: [3] } }, { name: "B" }),
        block("join", "task", { output: { items: "<B.items ?? A.items>" } }),
      ],
      [
        edge("start", "check"),
        edge("check", "a", "branch:a"),
        edge("check", "b", "branch:b"),
        edge("a", "join"),
        edge("b", "join"),
      ],
    );
    const run = await runHarness(document);
    expect(run.result.output).toEqual({ items: [1, 2] });
  });

  it("fails naming every alternative and why it has none when no branch of the merge ran", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("check", "condition", {
          branches: [{ id: "a", expression: "false" }, { id: "b", expression: "false" }, { id: "c" }],
        }),
        block("a", "task", { value: 1 }, { name: "Sales Agent" }),
        block("b", "task", { value: 2 }, { name: "Support Agent" }),
        block("c", "task", { value: 3 }, { name: "Other" }),
        block("join", "task", { value: "<Sales Agent.value ?? Support Agent.value>" }),
      ],
      [
        edge("start", "check"),
        edge("check", "a", "branch:a"),
        edge("check", "b", "branch:b"),
        edge("check", "c", "branch:c"),
        edge("a", "join"),
        edge("b", "join"),
        edge("c", "join"),
      ],
    );
    const run = await runHarness(document);
    expect(run.result.status).toBe("failed");
    expect(run.failed[0]).toMatchObject({
      blockId: "join",
      error: {
        code: "unresolved_reference",
        message:
          "<Sales Agent.value ?? Support Agent.value>: no alternative has a value: " +
          "<Sales Agent.value>: block 'Sales Agent' was skipped (on a path not taken after 'check'), so it has no output; " +
          "<Support Agent.value>: block 'Support Agent' was skipped (on a path not taken after 'check'), so it has no output",
      },
    });
  });

  it("tells a plain reference to a skipped branch how to read whichever branch ran", async () => {
    const run = await runHarness(supportRouting("sales", "<Support Agent.output.content>"));
    expect(run.failed[0]).toMatchObject({
      blockId: "response",
      error: {
        message:
          "<Support Agent.output.content>: block 'Support Agent' was skipped (on a path not taken after 'Router'), so it has no output; " +
          "to read whichever branch ran, write <Support Agent.output.content ?? Sales Agent.output.content>",
      },
    });
  });

  it("suggests a fallback default when no other branch ran in the skipped block's place", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("fetch", "task", { value: 1 }),
        block("extra", "task", { value: 1 }, { name: "Extra" }),
        block("reader", "task", { value: "<Extra.value>" }),
      ],
      [edge("start", "fetch"), edge("fetch", "extra", "error"), edge("fetch", "reader")],
    );
    const run = await runHarness(document);
    expect(run.failed[0]!.error.message).toBe(
      "<Extra.value>: block 'Extra' was skipped (on a path not taken after 'fetch'), so it has no output; " +
        'to use it only when it ran, give a fallback: <Extra.value ?? "default">',
    );
  });
});
