import { describe, expect, it, vi } from "vitest";
import { block, edge, lookupFakeType, workflow } from "./__fixtures__/fake-blocks";
import type { BlockTypeLookup } from "./block-type";
import { connectionProblem, createConnectionChecker } from "./connection-checker";

describe("connection checker for the canvas", () => {
  const document = workflow(
    [
      block("start", "start"),
      block("a", "task"),
      block("b", "task"),
      block("loop1", "loop"),
      block("inner", "task", {}, { parentId: "loop1" }),
    ],
    [edge("start", "a"), edge("a", "b")],
  );
  const checker = createConnectionChecker(document, lookupFakeType);

  it("allows a valid connection", () => {
    expect(checker.problem({ source: "b", target: "loop1" })).toBeNull();
    expect(checker.problem({ source: "loop1", target: "inner", sourceHandle: "body" })).toBeNull();
    expect(connectionProblem(document, lookupFakeType, { source: "b", target: "loop1" })).toBeNull();
  });

  it("explains why a connection is refused, in the validator's words", () => {
    expect(checker.problem({ source: "b", target: "a" })).toBe(
      "Connecting 'b' to 'a' would close a cycle ('b' → 'a' → 'b'); repeat work with a loop container instead, or give the edge that goes back a cap (maxRetries)",
    );
    expect(checker.problem({ source: "a", target: "start" })).toBe(
      "The start block 'start' accepts no incoming edges (edge from 'a')",
    );
    expect(checker.problem({ source: "a", target: "inner" })).toContain("crosses a container boundary");
    expect(checker.problem({ source: "a", target: "b", sourceHandle: "branch:x" })).toBe(
      "Block 'a' has no 'branch:x' handle (it offers: out, error)",
    );
    expect(checker.problem({ source: "a", target: "b" })).toBe("'a' is already connected to 'b' from its 'out' handle");
    expect(checker.problem({ source: "a", target: "ghost" })).toBe("There is no block 'ghost'");
  });

  // Moved from the canvas's own would-create-cycle.ts.
  it("detects a path back to the source and allows forward edges", () => {
    const chain = createConnectionChecker(
      workflow(
        [block("start", "start"), block("a", "task"), block("b", "task"), block("c", "task")],
        [edge("a", "b"), edge("b", "c")],
      ),
      lookupFakeType,
    );
    expect(chain.problem({ source: "c", target: "a" })).toBe(
      "Connecting 'c' to 'a' would close a cycle ('c' → 'a' → 'b' → 'c'); repeat work with a loop container instead, or give the edge that goes back a cap (maxRetries)",
    );
    expect(chain.problem({ source: "a", target: "c" })).toBeNull();
    expect(chain.problem({ source: "a", target: "a" })).toBe(
      "Block 'a' is connected to itself; repeat work with a loop container",
    );
  });

  // Moved from the canvas's own connection-rules.ts.
  describe("start block, containers and duplicates", () => {
    const canvas = workflow(
      [
        block("start", "start"),
        block("agent", "task"),
        block("loop", "loop"),
        block("inner", "task", {}, { parentId: "loop" }),
      ],
      [edge("start", "agent")],
    );
    const rules = createConnectionChecker(canvas, lookupFakeType);

    it("refuses edges into a start block, across containers and duplicates", () => {
      expect(rules.problem({ source: "agent", target: "start" })).toMatch(/accepts no incoming edges/);
      expect(rules.problem({ source: "agent", target: "inner" })).toMatch(/crosses a container boundary/);
      expect(rules.problem({ source: "start", target: "agent", sourceHandle: "out" })).toMatch(/already connected/);
    });

    it("lets a container's body reach only its own children", () => {
      expect(rules.problem({ source: "loop", target: "inner", sourceHandle: "body" })).toBeNull();
      expect(rules.problem({ source: "loop", target: "agent", sourceHandle: "body" })).toMatch(
        /'agent' is not inside 'loop'/,
      );
    });
  });

  it("holds edges of disabled blocks to the same rules, so enabling them cannot break the workflow", () => {
    const withDisabled = createConnectionChecker(
      workflow(
        [block("start", "start"), block("a", "task"), block("off", "task", {}, { enabled: false })],
        [edge("start", "a"), edge("a", "off")],
      ),
      lookupFakeType,
    );
    expect(withDisabled.problem({ source: "off", target: "a" })).toMatch(/would close a cycle \('off' → 'a' → 'off'\)/);
    expect(withDisabled.problem({ source: "off", target: "start" })).toMatch(/accepts no incoming edges/);
  });

  it("analyses the document once and each source's upstream blocks once, however many hovers", () => {
    const sourceHandles = vi.fn(() => ["out", "error"]);
    const counting: BlockTypeLookup = (type) => {
      const info = lookupFakeType(type);
      return info && type === "task" ? { ...info, sourceHandles } : info;
    };
    const chain = workflow(
      [block("start", "start"), ...["a", "b", "c", "d"].map((id) => block(id, "task"))],
      [edge("start", "a"), edge("a", "b"), edge("b", "c"), edge("c", "d")],
    );
    const hovering = createConnectionChecker(chain, counting);
    const afterAnalysis = sourceHandles.mock.calls.length;
    for (let round = 0; round < 3; round += 1)
      for (const target of ["a", "b", "c"]) expect(hovering.problem({ source: "d", target })).toMatch(/cycle/);
    expect(hovering.problem({ source: "a", target: "d" })).toBeNull();
    // Once per source block: the handles of 'd' and of 'a'.
    expect(sourceHandles.mock.calls.length - afterAnalysis).toBe(2);
  });
});
