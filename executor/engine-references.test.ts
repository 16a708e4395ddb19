import { describe, expect, it } from "vitest";
import { block, edge, workflow } from "./__fixtures__/fake-blocks";
import { runHarness } from "./__fixtures__/run-harness";
import { SecretRedactor } from "./runtime/secret-redactor";

describe("engine: references at run time", () => {
  it("fails clearly when a block reads the output of a block that was skipped", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("check", "condition", { branches: [{ id: "a", expression: "true" }, { id: "b" }] }),
        block("taken", "task", { value: "yes" }),
        block("notTaken", "task", { value: "no" }, { name: "Not Taken" }),
        block("join", "task", { value: "<taken.value> / <Not Taken.value>" }),
      ],
      [
        edge("start", "check"),
        edge("check", "taken", "branch:a"),
        edge("check", "notTaken", "branch:b"),
        edge("taken", "join"),
        edge("notTaken", "join"),
      ],
    );
    const run = await runHarness(document);
    expect(run.result.status).toBe("failed");
    expect(run.failed[0]).toMatchObject({
      blockId: "join",
      error: {
        code: "unresolved_reference",
        message:
          "<Not Taken.value>: block 'Not Taken' was skipped (on a path not taken after 'check'), so it has no output; " +
          "to read whichever branch ran, write <Not Taken.value ?? taken.value>",
      },
    });
  });

  it("reads deeply nested paths, array indexes from the end, and passes whole-field references raw", async () => {
    const order = {
      customer: { name: "Ada", tags: ["new", "vip"] },
      lines: [
        { sku: "A1", qty: 2 },
        { sku: "B2", qty: 1, meta: { notes: [{ text: "gift" }] } },
      ],
    };
    const document = workflow(
      [
        block("start", "start"),
        block("fetch", "task", { output: { order } }, { name: "Fetch Order" }),
        block("use", "task", {
          output: {
            deep: "<fetchorder.order.lines[1].meta.notes[0].text>",
            last: "<Fetch Order.order.customer.tags[-1]>",
            raw: "<fetch.order.lines>",
            count: "<fetch.order.lines.length>",
            text: "Customer: <FETCH ORDER.order.customer> x<fetch.order.lines[0].qty>",
          },
        }),
      ],
      [edge("start", "fetch"), edge("fetch", "use")],
    );
    const run = await runHarness(document);
    expect(run.result.output).toEqual({
      deep: "gift",
      last: "vip",
      raw: order.lines,
      count: 2,
      text: `Customer: ${JSON.stringify(order.customer)} x2`,
    });
  });

  it("names the block and the path that do not exist, and never inserts 'undefined'", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("a", "task", { output: { content: "hi", empty: null } }),
        block("b", "task", { value: "[<a.empty>] <a.content.missing>" }),
      ],
      [edge("start", "a"), edge("a", "b")],
    );
    const run = await runHarness(document);
    expect(run.failed[0]!.error.message).toBe("<a.content.missing>: 'a' has no value at 'content.missing'");
    expect(JSON.stringify(run.events)).not.toContain("undefined");
  });

  it("resolves <variable.x>, run-time variables over the document's, and {{ENV}} masked in events, spans and the output", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("call", "task", {
          output: { auth: "Bearer {{API_TOKEN}}", company: "<variable.company>", region: "<variable.region>" },
        }),
      ],
      [edge("start", "call")],
      { company: "Acme", region: "eu" },
    );
    const run = await runHarness(document, {
      variables: { region: "us" },
      env: (name) => (name === "API_TOKEN" ? "s3cr3t-value" : undefined),
    });
    expect(run.result.output).toEqual({ auth: "Bearer [secret:API_TOKEN]", company: "Acme", region: "us" });
    const reported = JSON.stringify([run.events, run.spans, run.result]);
    expect(reported).not.toContain("s3cr3t-value");
    expect(reported).toContain("Bearer [secret:API_TOKEN]");
  });

  it("masks every value the redactor was given, used or not, in events, spans, the output and the error", async () => {
    const leak = "canary-7f3a9b2c";
    const document = workflow(
      [
        block("start", "start"),
        block("echo", "task", {
          delta: `streamed ${leak.slice(0, 6)}`,
          output: { text: `${leak} ${leak.toUpperCase()} ${[...leak].reverse().join("")}` },
        }),
        block("fail", "task", { fail: `failed with ${encodeURIComponent(leak)}` }),
      ],
      [edge("start", "echo"), edge("echo", "fail")],
    );
    const run = await runHarness(document, { redactor: new SecretRedactor([["CANARY", leak]]) });
    const reported = JSON.stringify([run.events, run.spans, run.result]);
    expect(reported).not.toContain(leak);
    expect(reported).not.toContain(leak.toUpperCase());
    expect(run.completed("echo")[0]).toMatchObject({
      output: { text: "[secret:CANARY] [secret:CANARY] [secret:CANARY]" },
    });
    expect(run.result.error?.message).toContain("[secret:CANARY]");
  });

  it("streams a value split across deltas masked, holding back only until the next delta or the block's end", async () => {
    const leak = "canary-7f3a9b2c";
    const document = workflow(
      [
        block("start", "start"),
        block("talk", "task", { deltas: ["The key: ", leak.slice(0, 5), leak.slice(5), " - done"] }),
      ],
      [edge("start", "talk")],
    );
    const run = await runHarness(document, { redactor: new SecretRedactor([["CANARY", leak]]) });
    const deltas = run.events.flatMap((event) => (event.type === "block.delta" ? [event.text] : []));
    expect(deltas.join("")).toBe("The key: [secret:CANARY] - done");
    for (const delta of deltas) expect(delta).not.toContain(leak.slice(0, 5));
    const completedAt = run.events.findIndex((event) => event.type === "block.completed" && event.blockId === "talk");
    expect(run.events.findLastIndex((event) => event.type === "block.delta")).toBeLessThan(completedAt);
  });

  it("re-checks a config after resolution: a number field fed text fails with the field's path", async () => {
    const document = workflow(
      [block("start", "start"), block("typed", "task", { count: "<start.n>" })],
      [edge("start", "typed")],
    );
    const ok = await runHarness(document, { input: { n: 3 } });
    expect(ok.result.status).toBe("succeeded");
    const bad = await runHarness(document, { input: { n: "three" } });
    expect(bad.failed[0]!.error).toEqual({
      code: "invalid_config",
      message: "Block 'typed': config is invalid after resolving references: count: expected number",
    });
  });

  it("hands the handler its config as the block type parsed it: references resolved first, then defaults applied", async () => {
    const document = workflow(
      [block("start", "start"), block("greet", "greeter", { name: "<start.name>" }), block("plain", "greeter")],
      [edge("start", "greet"), edge("start", "plain")],
    );
    const run = await runHarness(document, { input: { name: "Ada" } });
    expect(run.completed("greet")[0]).toMatchObject({ output: { text: "Hello, Ada" } });
    expect(run.completed("plain")[0]).toMatchObject({ output: { text: "Hello, you" } });
  });

  it("lets a condition's later branch name a skipped block without failing when an earlier branch matches", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("gate", "condition", { branches: [{ id: "never", expression: "false" }, { id: "else" }] }),
        block("ghost", "task", { value: 1 }),
        block("join", "task"),
        block("check", "condition", {
          branches: [
            { id: "first", expression: "true" },
            { id: "second", expression: "<ghost.value> > 0" },
          ],
        }),
        block("done", "task", { value: "ok" }),
      ],
      [
        edge("start", "gate"),
        edge("gate", "ghost", "branch:never"),
        edge("gate", "join", "branch:else"),
        edge("ghost", "join"),
        edge("join", "check"),
        edge("check", "done", "branch:first"),
      ],
    );
    const run = await runHarness(document);
    expect(run.result).toMatchObject({ status: "succeeded", output: { value: "ok" } });
  });
});
