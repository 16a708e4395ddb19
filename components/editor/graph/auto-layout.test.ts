import { describe, expect, it } from "vitest";
import { documentToFlow } from "./document-flow";
import { layoutGraph } from "./auto-layout";

describe("layoutGraph", () => {
  it("lays blocks out left to right and fits children inside their container", async () => {
    const { nodes, edges } = documentToFlow({
      blocks: [
        {
          id: "start",
          type: "start",
          name: "Start",
          position: { x: 0, y: 0 },
          parentId: null,
          enabled: true,
          config: {},
        },
        {
          id: "loop1",
          type: "loop",
          name: "Loop 1",
          position: { x: 0, y: 0 },
          parentId: null,
          enabled: true,
          config: {},
          size: { width: 420, height: 240 },
        },
        {
          id: "fn1",
          type: "function",
          name: "Fn",
          position: { x: 0, y: 0 },
          parentId: "loop1",
          enabled: true,
          config: {},
        },
        {
          id: "fn2",
          type: "function",
          name: "Fn 2",
          position: { x: 0, y: 0 },
          parentId: "loop1",
          enabled: true,
          config: {},
        },
        {
          id: "end",
          type: "response",
          name: "End",
          position: { x: 0, y: 0 },
          parentId: null,
          enabled: true,
          config: {},
        },
      ],
      edges: [
        { id: "e1", source: "start", target: "loop1", sourceHandle: "out" },
        { id: "e2", source: "loop1", target: "fn1", sourceHandle: "body" },
        { id: "e3", source: "fn1", target: "fn2", sourceHandle: "out" },
        { id: "e4", source: "loop1", target: "end", sourceHandle: "out" },
      ],
    });
    const placed = await layoutGraph(nodes, edges);
    const at = (id: string) => placed.get(id)!;
    expect(at("start").x).toBeLessThan(at("loop1").x);
    expect(at("loop1").x).toBeLessThan(at("end").x);
    expect(at("fn1").x).toBeLessThan(at("fn2").x);
    // Children are placed relative to the container and inside it.
    expect(at("fn2").x + 240).toBeLessThanOrEqual(at("loop1").width!);
    expect(at("loop1").width).toBeGreaterThan(480);
  });

  it("keeps a condition's branches in the order of its handles, so their edges do not cross", async () => {
    const block = (id: string, type: string, config: Record<string, unknown> = {}) => ({
      id,
      type,
      name: id,
      position: { x: 0, y: 0 },
      parentId: null,
      enabled: true,
      config,
    });
    const branches = [
      { id: "yes", expression: "<start.input> == 'a'" },
      { id: "maybe", expression: "<start.input> == 'b'" },
      { id: "no" },
    ];
    // Targets listed in the reverse of the handles' order (as a user might add them).
    const { nodes, edges } = documentToFlow({
      blocks: [
        block("start", "start"),
        block("check", "condition", { branches }),
        block("onNo", "function"),
        block("onMaybe", "function"),
        block("onYes", "function"),
      ],
      edges: [
        { id: "e1", source: "start", target: "check", sourceHandle: "out" },
        { id: "e2", source: "check", target: "onNo", sourceHandle: "branch:no" },
        { id: "e3", source: "check", target: "onMaybe", sourceHandle: "branch:maybe" },
        { id: "e4", source: "check", target: "onYes", sourceHandle: "branch:yes" },
      ],
    });
    const placed = await layoutGraph(nodes, edges);
    const y = (id: string) => placed.get(id)!.y;
    expect(y("onYes")).toBeLessThan(y("onMaybe"));
    expect(y("onMaybe")).toBeLessThan(y("onNo"));
  });
});
