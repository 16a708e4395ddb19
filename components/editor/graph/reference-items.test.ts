import { describe, expect, it } from "vitest";
import { workflowDocumentSchema } from "@/contract";
import { referenceItemsFor } from "./reference-items";

describe("reference completion for workflow variables", () => {
  const document = workflowDocumentSchema.parse({
    name: "Vars",
    variables: { topic: "cats" },
    blocks: [
      { id: "start", type: "start", name: "Start", config: {} },
      {
        id: "set",
        type: "variables",
        name: "Set",
        config: {
          assignments: [
            { name: "count", value: 1 },
            { name: "topic", value: "dogs" },
          ],
        },
      },
      { id: "after", type: "response", name: "After", config: {} },
      { id: "aside", type: "response", name: "Aside", config: {} },
    ],
    edges: [
      { id: "e1", source: "start", target: "set" },
      { id: "e2", source: "set", target: "after" },
      { id: "e3", source: "start", target: "aside" },
    ],
  });
  const variablesFor = (blockId: string) =>
    referenceItemsFor(document.blocks, document.edges, document.variables, blockId)
      .filter((item) => item.detail === "variable")
      .map((item) => item.value);

  it("offers the panel's variables and, after a Set Variables block, the names it assigns, each once", () => {
    expect(variablesFor("after")).toEqual(["variable.topic", "variable.count"]);
  });

  it("does not offer what a Set Variables block assigns to blocks that are not after it", () => {
    expect(variablesFor("aside")).toEqual(["variable.topic"]);
  });
});
