import { describe, expect, it } from "vitest";
import { workflowDocumentSchema, type WorkflowDocumentInput } from "@/contract";
import { validateWorkflow } from "@/executor/dag-builder";
import { executeWorkflow } from "@/executor/engine";
import type { HandlerContext } from "@/core";
import { controlHandlers, lookupHandlers } from "../handlers";
import { lookupBlockType } from "../type-info";
import { variablesHandler } from "./handler";

const context = { block: { id: "set", name: "Set" } } as unknown as HandlerContext;

describe("Set Variables handler", () => {
  it("outputs each assigned value, evaluating expressions", async () => {
    const assignments = [
      { name: "topic", value: "cats" },
      { name: "tags", value: ["a", "b"] },
      { name: "count", expression: "2 * 3 + 1" },
      { name: "empty" },
    ];
    expect((await variablesHandler({ config: { assignments }, inputs: {}, context })).output).toEqual({
      topic: "cats",
      tags: ["a", "b"],
      count: 7,
      empty: null,
    });
  });

  it("names the assignment whose expression is broken", async () => {
    await expect(
      variablesHandler({
        config: {
          assignments: [
            { name: "ok", value: 1 },
            { name: "total", expression: "1 +" },
          ],
        },
        inputs: {},
        context,
      }),
    ).rejects.toThrow("Assignment 2 ('total') of 'Set': The expression ends too early at position 4");
  });
});

function document(
  assignments: unknown[],
  read: unknown = "<variable.count>",
): ReturnType<typeof workflowDocumentSchema.parse> {
  const input: WorkflowDocumentInput = {
    name: "Counter",
    variables: { count: 1 },
    blocks: [
      { id: "start", type: "start", name: "Start", config: {} },
      { id: "set", type: "variables", name: "Set", config: { assignments } },
      { id: "done", type: "response", name: "Done", config: { data: read } },
    ],
    edges: [
      { id: "e1", source: "start", target: "set" },
      { id: "e2", source: "set", target: "done" },
    ],
  };
  return workflowDocumentSchema.parse(input);
}

describe("Set Variables block in a real run", () => {
  const run = (doc: ReturnType<typeof document>) =>
    executeWorkflow({
      document: doc,
      lookupBlockType,
      lookupHandler: lookupHandlers(controlHandlers),
      observer: { event: () => undefined, span: () => undefined },
      runId: "r",
      workflowId: "w",
    });

  it("gives the block after it the new values", async () => {
    const doc = document(
      [
        { name: "count", expression: "<variable.count> + 41" },
        { name: "label", value: "n=<variable.count>" },
      ],
      {
        count: "<variable.count>",
        label: "<variable.label>",
      },
    );
    expect(validateWorkflow(doc, lookupBlockType)).toEqual([]);
    expect((await run(doc)).output).toEqual({ count: 42, label: "n=1" });
  });

  it("accepts a reference to a variable only a Set Variables block defines", () => {
    expect(validateWorkflow(document([{ name: "fresh", value: "x" }], "<variable.fresh>"), lookupBlockType)).toEqual(
      [],
    );
  });

  it("refuses at save a name that is not an identifier, or one assigned twice, naming the block and the assignment", () => {
    const doc = document(
      [
        { name: "ok", value: 1 },
        { name: "my-var", value: 2 },
        { name: "ok", value: 3 },
        { name: "", value: 4 },
      ],
      "<variable.ok>",
    );
    expect(validateWorkflow(doc, lookupBlockType)).toEqual([
      {
        path: "blocks[1].config.assignments[1].name",
        message: `Block 'Set': Assignments, item 2, name: "my-var" is not a variable name (a letter or _ first, then letters, digits or _)`,
      },
      {
        path: "blocks[1].config.assignments[2].name",
        message: "Block 'Set': Assignments, item 3, name: 'ok' is assigned twice in this block",
      },
      {
        path: "blocks[1].config.assignments[3].name",
        message: `Block 'Set': Assignments, item 4, name: "" is not a variable name (a letter or _ first, then letters, digits or _)`,
      },
    ]);
  });
});
