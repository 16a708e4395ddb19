import { describe, expect, it } from "vitest";
import { READABLE_ZOOM, readableFitIds } from "./readable-fit";

const chain = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ id: `b${index}`, x: index * 320, y: 0, width: 240, height: 100 }));

describe("readableFitIds", () => {
  it("fits a workflow whole when it reads at that size", () => {
    expect(readableFitIds(chain(3), 1000)).toEqual(["b0", "b1", "b2"]);
  });

  it("fits only the start of a long workflow, as much as reads in the canvas's width", () => {
    const ids = readableFitIds(chain(12), 800);
    expect(ids[0]).toBe("b0");
    const last = chain(12).find((box) => box.id === ids.at(-1))!;
    expect((last.x + last.width) * READABLE_ZOOM).toBeLessThanOrEqual(800 * 0.8);
    expect(ids.length).toBeLessThan(12);
  });

  it("fits the first block alone when even one is wider than the canvas at that zoom", () => {
    expect(
      readableFitIds(
        [
          { id: "wide", x: 0, y: 0, width: 5000, height: 300 },
          { id: "next", x: 5100, y: 0, width: 240, height: 100 },
        ],
        600,
      ),
    ).toEqual(["wide"]);
  });
});
