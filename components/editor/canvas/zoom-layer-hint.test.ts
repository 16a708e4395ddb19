import { describe, expect, it } from "vitest";
import { ZOOMING_ATTRIBUTE, zoomLayerHint } from "./zoom-layer-hint";

/** Records the attribute as an element would, and every change made to it. */
function element() {
  const changes: boolean[] = [];
  let present = false;
  return {
    changes,
    get present() {
      return present;
    },
    toggleAttribute(name: string, force: boolean) {
      expect(name).toBe(ZOOMING_ATTRIBUTE);
      present = force;
      changes.push(force);
      return force;
    },
  };
}

const at = (x: number, zoom: number) => ({ x, y: 0, zoom });

describe("zoomLayerHint", () => {
  it("marks the canvas once the zoom level changes and clears it when the move ends", () => {
    const canvas = element();
    const hint = zoomLayerHint();
    hint.attach(canvas);
    hint.onMoveStart(null, at(0, 0.5));
    expect(canvas.present).toBe(false);
    hint.onMove(null, at(0, 0.55));
    hint.onMove(null, at(0, 0.6));
    expect(canvas.present).toBe(true);
    hint.onMoveEnd();
    expect(canvas.present).toBe(false);
    // One change each way, not one per frame.
    expect(canvas.changes).toEqual([true, false]);
  });

  it("leaves a pan unmarked: the zoom level never changes", () => {
    const canvas = element();
    const hint = zoomLayerHint();
    hint.attach(canvas);
    hint.onMoveStart(null, at(0, 0.5));
    for (let x = 1; x < 50; x += 1) hint.onMove(null, at(-x * 12, 0.5));
    hint.onMoveEnd();
    expect(canvas.changes).toEqual([]);
  });

  it("does nothing when the canvas is gone", () => {
    const hint = zoomLayerHint();
    hint.attach(null);
    hint.onMoveStart(null, at(0, 1));
    expect(() => hint.onMove(null, at(0, 2))).not.toThrow();
    expect(() => hint.onMoveEnd()).not.toThrow();
  });
});
