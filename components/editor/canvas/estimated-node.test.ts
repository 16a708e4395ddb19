import { describe, expect, it } from "vitest";
import type { EditorNode } from "../graph/flow-types";
import { withEstimatedBounds } from "./estimated-node";

function block(id: string, type: string, extra: Partial<EditorNode> = {}): EditorNode {
  return { id, type: "block", position: { x: 0, y: 0 }, data: { type, name: id, enabled: true, config: {} }, ...extra };
}

describe("withEstimatedBounds", () => {
  it("gives a never-measured agent its size and the handles the node draws: in, out and error", () => {
    const estimated = withEstimatedBounds(block("a", "agent"), new Set());
    // Measured in Chromium on the 500-block benchmark: 240 x 99, out at y 59.5, error at 79.5, in at 43.25.
    expect(estimated.initialWidth).toBe(240);
    expect(estimated.initialHeight).toBe(99);
    const handles = Object.fromEntries(
      (estimated.handles ?? []).map((handle) => [`${handle.type}:${handle.id}`, handle]),
    );
    expect(Object.keys(handles).sort()).toEqual(["source:error", "source:out", "target:null"]);
    expect(handles["source:out"]).toMatchObject({ x: 242, y: 59.5 });
    expect(handles["source:error"]).toMatchObject({ x: 242, y: 79.5 });
    expect(handles["target:null"]!.y).toBeCloseTo(43.25, 0);
  });

  it("gives Start no input handle, since it accepts none", () => {
    const estimated = withEstimatedBounds(block("s", "start"), new Set());
    expect(estimated.handles?.some((handle) => handle.type === "target")).toBe(false);
  });

  it("returns the same estimate for the same node object, so React Flow does not re-adopt it", () => {
    const measuredIds = new Set<string>();
    const node = block("a", "function");
    expect(withEstimatedBounds(node, measuredIds)).toBe(withEstimatedBounds(node, measuredIds));
  });

  it("never estimates a block again once it was measured, even when an unmeasured copy comes back", () => {
    const measuredIds = new Set<string>();
    const measured = block("a", "agent", { measured: { width: 240, height: 131 } });
    expect(withEstimatedBounds(measured, measuredIds)).toBe(measured);
    const restored = block("a", "agent");
    expect(withEstimatedBounds(restored, measuredIds)).toBe(restored);
  });

  it("leaves containers alone: they carry their own size", () => {
    const container: EditorNode = { ...block("l", "loop"), type: "container", width: 420, height: 240 };
    expect(withEstimatedBounds(container, new Set())).toBe(container);
  });
});
