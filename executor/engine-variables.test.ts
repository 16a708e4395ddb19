import { describe, expect, it } from "vitest";
import { block, edge, workflow } from "./__fixtures__/fake-blocks";
import { runHarness, type HarnessResult } from "./__fixtures__/run-harness";
import { validateWorkflow } from "./dag-builder";
import { lookupFakeType } from "./__fixtures__/fake-blocks";

const inside = (parentId: string) => ({ parentId });
const set = (name: string, value: unknown) => ({ assignments: [{ name, value }] });
const compute = (name: string, expression: string) => ({ assignments: [{ name, expression }] });

/** The values a task block resolved, per call (one per iteration inside containers). */
function valuesOf(run: HarnessResult, blockId: string): unknown[] {
  return run.log.calls.filter((call) => call.blockId === blockId).map((call) => call.config.value);
}

describe("engine: Set Variables", () => {
  it("shows an assignment to the blocks after the Set Variables block, not to concurrent siblings or blocks before it", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("before", "task", { value: "<variable.mood>" }),
        block("set", "setvars", set("mood", "<before.value> then happy")),
        block("after", "task", { value: "<variable.mood>" }),
        block("later", "task", { value: "<variable.mood>" }),
        block("context", "task", { echoVariables: true }),
        // Starts long after `set` finished, but is not downstream of it.
        block("pause", "task", { delayMs: 30 }),
        block("sibling", "task", { value: "<variable.mood>" }),
      ],
      [
        edge("start", "before"),
        edge("before", "set"),
        edge("set", "after"),
        edge("after", "later"),
        edge("later", "context"),
        edge("before", "pause"),
        edge("pause", "sibling"),
      ],
      { mood: "calm" },
    );
    const run = await runHarness(document);
    expect(run.result.status).toBe("succeeded");
    expect(valuesOf(run, "before")).toEqual(["calm"]);
    expect(run.completed("set")[0]).toMatchObject({ output: { mood: "calm then happy" } });
    expect(valuesOf(run, "after")).toEqual(["calm then happy"]);
    expect(valuesOf(run, "later")).toEqual(["calm then happy"]);
    // Handlers read the same values in their context.
    expect(run.completed("context")[0]).toMatchObject({ output: { mood: "calm then happy" } });
    expect(valuesOf(run, "sibling")).toEqual(["calm"]);
  });

  it("keeps a whole-field reference's raw value and computes expressions from the values upstream", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("first", "setvars", {
          assignments: [
            { name: "tags", value: "<start.tags>" },
            { name: "count", value: 1 },
          ],
        }),
        block("second", "setvars", compute("count", "<variable.count> * 10 + len(<variable.tags>)")),
        block("read", "task", { output: { count: "<variable.count>", tags: "<variable.tags>" } }),
      ],
      [edge("start", "first"), edge("first", "second"), edge("second", "read")],
    );
    const run = await runHarness(document, { input: { tags: ["a", "b"] } });
    expect(run.result.output).toEqual({ count: 12, tags: ["a", "b"] });
  });

  it("applies upstream assignments on concurrent branches in the document's order, however the branches are timed", async () => {
    const build = (leftDelay: number, rightDelay: number) =>
      workflow(
        [
          block("start", "start"),
          block("leftWait", "task", { delayMs: leftDelay }),
          block("rightWait", "task", { delayMs: rightDelay }),
          block("left", "setvars", {
            assignments: [
              { name: "who", value: "left" },
              { name: "leftOnly", value: true },
            ],
          }),
          block("right", "setvars", set("who", "right")),
          block("join", "task", { output: { who: "<variable.who>", leftOnly: "<variable.leftOnly>" } }),
        ],
        [
          edge("start", "leftWait"),
          edge("start", "rightWait"),
          edge("leftWait", "left"),
          edge("rightWait", "right"),
          edge("left", "join"),
          edge("right", "join"),
        ],
      );
    for (const [leftDelay, rightDelay] of [
      [30, 0],
      [0, 30],
    ]) {
      const run = await runHarness(build(leftDelay!, rightDelay!));
      expect(run.result.output).toEqual({ who: "right", leftOnly: true });
    }
  });

  it("ignores a Set Variables block on a path not taken, and one that failed into its error edge", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("choose", "condition", { branches: [{ id: "no", expression: "false" }, { id: "yes" }] }),
        block("skippedSet", "setvars", set("x", "from the skipped path")),
        block("brokenSet", "setvars", set("x", "<start.missing>")),
        block("read", "task", { value: "<variable.x>" }),
      ],
      [
        edge("start", "choose"),
        edge("choose", "skippedSet", "branch:no"),
        edge("choose", "brokenSet", "branch:yes"),
        edge("brokenSet", "read", "error"),
        edge("skippedSet", "read"),
      ],
      { x: "initial" },
    );
    const run = await runHarness(document);
    expect(run.skipped).toContain("skippedSet");
    expect(run.failed.map((event) => event.blockId)).toEqual(["brokenSet"]);
    expect(valuesOf(run, "read")).toEqual(["initial"]);
  });

  it("accumulates across loop iterations: each iteration starts from the previous one's values, and blocks after the loop see the last", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("repeat", "loop", { kind: "for", count: 3 }),
        block("seen", "task", { value: "<variable.count>" }, inside("repeat")),
        block("bump", "setvars", compute("count", "<variable.count> + 1"), inside("repeat")),
        block("after", "task", { value: "<variable.count>" }),
      ],
      [edge("start", "repeat"), edge("repeat", "seen", "body"), edge("seen", "bump"), edge("repeat", "after")],
      { count: 0 },
    );
    const run = await runHarness(document);
    expect(valuesOf(run, "seen")).toEqual([0, 1, 2]);
    expect(run.completed("bump").map((event) => (event as { output: unknown }).output)).toEqual([
      { count: 1 },
      { count: 2 },
      { count: 3 },
    ]);
    expect(valuesOf(run, "after")).toEqual([3]);
  });

  it("evaluates a while loop's condition over the values the next iteration starts from", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("until", "loop", { kind: "while", condition: "<variable.total> < 10" }),
        block("add", "setvars", compute("total", "<variable.total> + 4"), inside("until")),
        block("after", "task", { value: "<variable.total>" }),
      ],
      [edge("start", "until"), edge("until", "add", "body"), edge("until", "after")],
      { total: 0 },
    );
    const run = await runHarness(document);
    expect(run.started("add")).toHaveLength(3);
    expect(valuesOf(run, "after")).toEqual([12]);
  });

  it("isolates parallel branches: each starts from the container's values and keeps its assignments to itself", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("set", "setvars", set("label", "outer")),
        block("fan", "parallel", { kind: "collection", collection: ["a", "b", "c"], concurrency: 3 }),
        block("mark", "setvars", set("label", "<variable.label>-<parallel.item>"), inside("fan")),
        block("slow", "task", { value: "<variable.label>", delayMs: "<parallel.index>" }, inside("fan")),
        block("after", "task", { value: "<variable.label>" }),
      ],
      [
        edge("start", "set"),
        edge("set", "fan"),
        edge("fan", "mark", "body"),
        edge("mark", "slow"),
        edge("fan", "after"),
      ],
    );
    const run = await runHarness(document);
    expect(run.result.status).toBe("succeeded");
    expect(
      run.log.calls.filter((call) => call.blockId === "slow").map((call) => [call.iteration[0], call.config.value]),
    ).toEqual(
      expect.arrayContaining([
        [0, "outer-a"],
        [1, "outer-b"],
        [2, "outer-c"],
      ]),
    );
    expect(valuesOf(run, "after")).toEqual(["outer"]);
  });

  it("gives a nested loop's assignments to its enclosing iteration", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("outer", "loop", { kind: "for", count: 2 }),
        block("inner", "loop", { kind: "for", count: 2 }, inside("outer")),
        block("bump", "setvars", compute("n", "<variable.n> + 1"), inside("inner")),
        block("seen", "task", { value: "<variable.n>" }, inside("outer")),
      ],
      [edge("start", "outer"), edge("outer", "inner", "body"), edge("inner", "bump", "body"), edge("inner", "seen")],
      { n: 0 },
    );
    const run = await runHarness(document);
    expect(valuesOf(run, "seen")).toEqual([2, 4]);
  });
});

describe("save-time checks of <variable.…>", () => {
  it("accepts a name that a Set Variables block assigns and still refuses one nothing defines", () => {
    const document = workflow(
      [
        block("start", "start"),
        block("set", "setvars", set("made", 1)),
        block("read", "task", { value: "<variable.made> <variable.known> <variable.nothing>" }),
      ],
      [edge("start", "set"), edge("set", "read")],
      { known: true },
    );
    expect(validateWorkflow(document, lookupFakeType)).toEqual([
      {
        path: "blocks[2].config.value",
        message: "Block 'read': <variable.nothing> names no workflow variable (defined: known, made)",
      },
    ]);
  });
});
