import { describe, expect, it } from "vitest";
import { block, edge, workflow } from "./__fixtures__/fake-blocks";
import { enclosingContainers, upstreamBlocks } from "./upstream-blocks";

describe("upstream blocks for reference completion", () => {
  const document = workflow(
    [
      block("start", "start"),
      block("a", "task"),
      block("loop1", "loop"),
      block("x", "task", {}, { parentId: "loop1" }),
      block("inner", "parallel", {}, { parentId: "loop1" }),
      block("y", "task", {}, { parentId: "inner" }),
      block("after", "task"),
      block("island", "task"),
    ],
    [
      edge("start", "a"),
      edge("a", "loop1"),
      edge("loop1", "x", "body"),
      edge("x", "inner"),
      edge("inner", "y", "body"),
      edge("loop1", "after"),
    ],
  );
  const ids = (blockId: string) => upstreamBlocks(document.blocks, document.edges, blockId).map((item) => item.id);

  it("offers every block with a path to it, and what leads to its containers, but not the containers themselves", () => {
    expect(ids("a")).toEqual(["start"]);
    expect(ids("x")).toEqual(["start", "a"]);
    expect(ids("y")).toEqual(["start", "a", "x"]);
    expect(ids("after")).toEqual(["start", "a", "loop1"]);
    expect(ids("island")).toEqual([]);
  });

  it("lists the containers around a block, innermost first", () => {
    expect(enclosingContainers(document.blocks, "y").map((item) => item.id)).toEqual(["inner", "loop1"]);
    expect(enclosingContainers(document.blocks, "a")).toEqual([]);
  });
});
