import { describe, expect, it } from "vitest";
import type { EditorNode } from "./flow-types";
import { freeSpot } from "./free-spot";

const block = (id: string, x: number, y: number, parentId?: string): EditorNode => ({
  id,
  type: "block",
  position: { x, y },
  measured: { width: 240, height: 100 },
  data: { type: "function", name: id, enabled: true, config: {} },
  ...(parentId ? { parentId } : {}),
});
const loop = (id: string, x: number, y: number, width: number, height: number): EditorNode => ({
  id,
  type: "container",
  position: { x, y },
  width,
  height,
  data: { type: "loop", name: id, enabled: true, config: {} },
});

const size = { width: 240, height: 100 };
const intersects = (a: { x: number; y: number }, b: { x: number; y: number }) =>
  a.x < b.x + size.width && b.x < a.x + size.width && a.y < b.y + size.height && b.y < a.y + size.height;

describe("freeSpot", () => {
  it("keeps the wanted place when nothing is there", () => {
    expect(freeSpot([block("a", 1000, 1000)], { x: 0, y: 0 }, size)).toEqual({ x: 0, y: 0 });
  });

  it("moves a new block off the block in the middle of the view, to the nearest free place", () => {
    const nodes = [block("a", 0, 0), block("b", 300, 0)];
    const spot = freeSpot(nodes, { x: 10, y: 10 }, size);
    for (const node of nodes) expect(intersects(spot, node.position)).toBe(false);
    expect(Math.hypot(spot.x - 10, spot.y - 10)).toBeLessThan(300);
  });

  it("stays inside the loop the wanted place is in, off the loop's own children", () => {
    const nodes = [loop("loop", 0, 0, 900, 600), block("inner", 100, 100, "loop")];
    const spot = freeSpot(nodes, { x: 110, y: 110 }, size);
    expect(intersects(spot, { x: 100, y: 100 })).toBe(false);
    expect(spot.x).toBeGreaterThanOrEqual(0);
    expect(spot.y).toBeGreaterThanOrEqual(0);
    expect(spot.x + size.width / 2).toBeLessThan(900);
    expect(spot.y + size.height / 2).toBeLessThan(600);
  });
});
