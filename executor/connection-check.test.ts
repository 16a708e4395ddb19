import { describe, expect, it } from "vitest";
import { block, edge, lookupFakeType, workflow } from "./__fixtures__/fake-blocks";
import { connectionProblem } from "./connection-check";

describe("connection check for the canvas", () => {
  const document = workflow(
    [block("start", "start"), block("a", "task"), block("b", "task"), block("loop1", "loop"), block("inner", "task", {}, { parentId: "loop1" })],
    [edge("start", "a"), edge("a", "b")],
  );

  it("allows a valid connection", () => {
    expect(connectionProblem(document, lookupFakeType, { source: "b", target: "loop1" })).toBeNull();
    expect(connectionProblem(document, lookupFakeType, { source: "loop1", target: "inner", sourceHandle: "body" })).toBeNull();
  });

  it("explains why a connection is refused", () => {
    expect(connectionProblem(document, lookupFakeType, { source: "b", target: "a" })).toBe("Connecting 'b' to 'a' would close a cycle; repeat work with a loop container instead");
    expect(connectionProblem(document, lookupFakeType, { source: "a", target: "start" })).toBe("The start block 'start' accepts no incoming edges (edge from 'a')");
    expect(connectionProblem(document, lookupFakeType, { source: "a", target: "inner" })).toContain("crosses a container boundary");
    expect(connectionProblem(document, lookupFakeType, { source: "a", target: "b", sourceHandle: "branch:x" })).toBe("Block 'a' has no 'branch:x' handle (it offers: out, error)");
  });
});
