import { describe, expect, it } from "vitest";
import { reciprocalRankFusion } from "./reciprocal-rank-fusion";
import { signBits } from "./sign-bits";

describe("reciprocalRankFusion", () => {
  it("puts an item ranked well in both lists above one ranked first in only one", () => {
    const fused = reciprocalRankFusion([
      ["a", "b", "c"],
      ["b", "d", "a"],
    ]);
    expect(fused.map((item) => item.id)).toEqual(["b", "a", "d", "c"]);
    expect(fused[0]).toEqual({ id: "b", score: expect.any(Number), ranks: [2, 1] });
  });

  it("scores 1.0 for first in every list", () => {
    expect(reciprocalRankFusion([["x"], ["x"]])[0]?.score).toBeCloseTo(1, 12);
    expect(reciprocalRankFusion([["x"], []])[0]?.score).toBeCloseTo(0.5, 12);
  });

  it("handles empty input", () => {
    expect(reciprocalRankFusion([])).toEqual([]);
  });
});

describe("signBits", () => {
  it("sets the positive half then the negative half", () => {
    expect(signBits([0.5, -0.2, 0])).toBe("100010");
  });
});
