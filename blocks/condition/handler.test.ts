import { describe, expect, it } from "vitest";
import { executeWorkflow } from "@/executor/engine";
import { validateWorkflow } from "@/executor/dag-builder";
import { workflowDocumentSchema } from "@/contract";
import type { HandlerContext } from "@/core";
import { controlHandlers, lookupHandlers } from "../handlers";
import { lookupBlockType } from "../type-info";
import { conditionHandler } from "./handler";

const context = { block: { id: "check", name: "Check" } } as unknown as HandlerContext;

describe("condition handler", () => {
  it("takes the first true branch, then the else", async () => {
    const branches = [
      { id: "a", expression: "1 > 2" },
      { id: "b", expression: "contains('refund please', 'refund')" },
      { id: "c" },
    ];
    expect((await conditionHandler({ config: { branches }, inputs: {}, context })).output).toEqual({
      selectedBranch: "b",
    });
    expect(
      (
        await conditionHandler({
          config: { branches: [{ id: "x", expression: "false" }, { id: "y" }] },
          inputs: {},
          context,
        })
      ).output,
    ).toEqual({
      selectedBranch: "y",
    });
  });

  it("selects nothing when no branch holds and there is no else", async () => {
    expect(
      (await conditionHandler({ config: { branches: [{ id: "x", expression: "false" }] }, inputs: {}, context }))
        .output,
    ).toEqual({
      selectedBranch: null,
    });
  });

  it("names the branch whose expression is broken", async () => {
    await expect(
      conditionHandler({ config: { branches: [{ id: "x", expression: "1 >" }] }, inputs: {}, context }),
    ).rejects.toThrow("Branch 'x' (if) of 'Check': The expression ends too early at position 4");
  });
});

describe("condition block in a real run", () => {
  const document = workflowDocumentSchema.parse({
    name: "Triage",
    blocks: [
      { id: "start", type: "start", name: "Start", config: { inputs: [{ name: "score", type: "number" }] } },
      {
        id: "check",
        type: "condition",
        name: "Check",
        config: { branches: [{ id: "high", expression: "<start.score> >= 80" }, { id: "low" }] },
      },
      { id: "yes", type: "response", name: "Yes", config: { data: "high" } },
      { id: "no", type: "response", name: "No", config: { data: "low" } },
    ],
    edges: [
      { id: "e1", source: "start", target: "check" },
      { id: "e2", source: "check", target: "yes", sourceHandle: "branch:high" },
      { id: "e3", source: "check", target: "no", sourceHandle: "branch:low" },
    ],
  });
  const lookupHandler = lookupHandlers(controlHandlers);

  it("is valid for the real registry and routes by its expression", async () => {
    expect(validateWorkflow(document, lookupBlockType)).toEqual([]);
    const run = (score: number) =>
      executeWorkflow({
        document,
        lookupBlockType,
        lookupHandler,
        observer: { event: () => undefined, span: () => undefined },
        runId: "r",
        workflowId: "w",
        input: { score },
      });
    expect((await run(91)).output).toBe("high");
    expect((await run(12)).output).toBe("low");
  });

  it("reports a syntax error in a branch at save time", () => {
    const broken = structuredClone(document);
    (broken.blocks[1]!.config.branches as Array<{ expression?: string }>)[0]!.expression = "<start.score> >=";
    expect(validateWorkflow(broken, lookupBlockType)).toEqual([
      {
        path: "blocks[1].config.branches[0].expression",
        message: "Block 'Check': Branches, item 1, expression: The expression ends too early at position 17",
      },
    ]);
  });
});
