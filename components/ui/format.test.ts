import { describe, expect, it } from "vitest";
import { figureMarks, formatCost, formatDollars, formatDuration, formatTokens } from "./format";

describe("run figures", () => {
  it("shows dollars exactly, to the cent and beyond", () => {
    expect(formatDollars(0.000123)).toBe("$0.000123");
    expect(formatDollars(0.00006195)).toBe("$0.00006195");
    expect(formatDollars(1.5)).toBe("$1.50");
    expect(formatDollars(0)).toBe("$0.00");
    expect(formatDollars(1234.0000000001)).toBe("$1,234.0000000001");
    // Floating-point noise past the stored precision (1e-10) does not show.
    expect(formatDollars(0.1 + 0.2)).toBe("$0.30");
  });

  it("says unpriced instead of a made-up zero, and marks estimates", () => {
    expect(formatCost({ cost: null, unpriced: true })).toBe("unpriced");
    expect(formatCost({ cost: undefined })).toBe("unpriced");
    expect(formatCost({ cost: { total: 0.0021 }, estimated: true })).toBe("≈ $0.0021");
    expect(formatCost({ cost: { total: 0.0021 } })).toBe("$0.0021");
    expect(figureMarks({ cost: null, estimated: true })).toEqual(["unpriced", "≈ estimated"]);
    expect(figureMarks({ cost: { total: 1 } })).toEqual([]);
  });

  it("writes tokens with thousands separators and durations in ms, s and minutes", () => {
    expect(formatTokens(1234567)).toBe("1,234,567 tokens");
    expect(formatTokens(525, true)).toBe("≈ 525 tokens");
    expect(formatDuration(850.4)).toBe("850 ms");
    expect(formatDuration(2345)).toBe("2.35 s");
    expect(formatDuration(14_240)).toBe("14.2 s");
    expect(formatDuration(119_700)).toBe("2 min 00 s");
    expect(formatDuration(185_000)).toBe("3 min 05 s");
  });
});
