import { describe, expect, it } from "vitest";
import type { EditorNode } from "./flow-types";
import { CONTAINER_FOOTER_ROOM, growContainersAround, growContainersToFit } from "./grow-containers";

function container(id: string, width: number, height: number, extra: Partial<EditorNode> = {}): EditorNode {
  return {
    id,
    type: "container",
    position: { x: 0, y: 0 },
    width,
    height,
    data: { type: "loop", name: id, enabled: true, config: {} },
    ...extra,
  };
}

describe("growContainersToFit", () => {
  it("grows every container around a nested one, innermost first, so each holds its child", () => {
    const nodes = [
      container("outer", 420, 240),
      container("middle", 420, 240, { parentId: "outer", position: { x: 40, y: 60 } }),
      container("inner", 420, 240, { parentId: "middle", position: { x: 40, y: 60 } }),
    ];
    const grown = growContainersToFit(nodes, "inner");
    const size = (id: string) => grown.find((node) => node.id === id)!;
    const footer = CONTAINER_FOOTER_ROOM;
    expect(size("middle")).toMatchObject({ width: 40 + 420 + 24, height: 60 + 240 + 24 + footer });
    expect(size("outer")).toMatchObject({ width: 40 + 484 + 24, height: 60 + (324 + footer) + 24 + footer });
    expect(size("inner")).toBe(nodes[2]);
  });

  it("leaves containers that already hold the child, and returns the same array", () => {
    const block: EditorNode = {
      id: "fn",
      type: "block",
      parentId: "loop",
      position: { x: 30, y: 60 },
      data: { type: "function", name: "fn", enabled: true, config: {} },
    };
    const nodes = [container("loop", 600, 400), block];
    expect(growContainersToFit(nodes, "fn")).toBe(nodes);
    expect(growContainersToFit(nodes, "loop")).toBe(nodes);
  });

  it("grows a loop around a child the canvas measured taller (a run's badge), keeping room for the loop's own badge", () => {
    const child: EditorNode = {
      id: "fn",
      type: "block",
      parentId: "loop",
      position: { x: 60, y: 100 },
      measured: { width: 240, height: 180 },
      data: { type: "function", name: "fn", enabled: true, config: {} },
    };
    const nodes = [container("loop", 420, 240), child];
    const grown = growContainersAround(nodes, ["fn"]);
    expect(grown.find((node) => node.id === "loop")).toMatchObject({
      width: 420,
      height: 100 + 180 + 24 + CONTAINER_FOOTER_ROOM,
    });
    expect(growContainersAround(grown, ["fn"])).toBe(grown);
  });
});
