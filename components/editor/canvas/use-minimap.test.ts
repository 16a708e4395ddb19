import { describe, expect, it } from "vitest";
import type { ReactFlowState } from "@xyflow/react";
import { blockUnderMinimap } from "./use-minimap";

/** A pane of 900 x 500 with blocks at the given flow positions (each 180 x 60), seen through `transform`. */
function pane(blocks: Array<{ x: number; y: number }>, transform: [number, number, number] = [0, 0, 1]) {
  const nodeLookup = new Map(
    blocks.map((position, index) => [
      `b${index}`,
      {
        id: `b${index}`,
        hidden: false,
        measured: { width: 180, height: 60 },
        internals: { positionAbsolute: position },
      },
    ]),
  );
  return { width: 900, height: 500, transform, nodeLookup } as unknown as Pick<
    ReactFlowState,
    "width" | "height" | "transform" | "nodeLookup"
  >;
}

describe("the minimap's corner", () => {
  it("is clear when every block is drawn away from the bottom right", () => {
    expect(
      blockUnderMinimap(
        pane([
          { x: 40, y: 40 },
          { x: 300, y: 200 },
        ]),
      ),
    ).toBe(false);
  });

  it("is covered when a block is drawn partly where the map sits, as the Response block was with the run panel open", () => {
    // The map spans x 725..885 and y 375..485 of the pane; this block reaches x 820 and y 420.
    expect(blockUnderMinimap(pane([{ x: 640, y: 360 }]))).toBe(true);
  });

  it("follows the view: panning a block out of the corner clears it", () => {
    expect(blockUnderMinimap(pane([{ x: 640, y: 360 }], [-200, -100, 1]))).toBe(false);
    expect(blockUnderMinimap(pane([{ x: 320, y: 180 }], [0, 0, 2]))).toBe(true);
  });
});
