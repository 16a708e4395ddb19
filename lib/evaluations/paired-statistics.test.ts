import { describe, expect, it } from "vitest";
import { bootstrapInterval, signTest } from "./paired-statistics";

describe("sign test", () => {
  it("answers the two-sided binomial tail", () => {
    expect(signTest(0, 0)).toEqual({ n: 0, pValue: 1 });
    expect(signTest(0, 3)).toEqual({ n: 3, pValue: 0.25 });
    // 0 of 10 one way: 2 / 1024.
    expect(signTest(10, 0).pValue).toBeCloseTo(2 / 1024, 12);
    expect(signTest(5, 5).pValue).toBe(1);
    // Large counts do not underflow.
    expect(signTest(600, 400).pValue).toBeLessThan(1e-9);
    expect(signTest(600, 400).pValue).toBeGreaterThan(0);
  });
});

describe("bootstrap interval", () => {
  it("is the same every time and holds the mean", () => {
    const deltas = [-1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    const first = bootstrapInterval(deltas);
    expect(bootstrapInterval(deltas)).toEqual(first);
    expect(first.low).toBeLessThanOrEqual(-0.25);
    expect(first.high).toBeGreaterThanOrEqual(-0.25);
    // 3 regressions in 12 do not rule out no change: a resample without them happens 3% of the time.
    expect(first.high).toBe(0);
    expect(bootstrapInterval(Array.from({ length: 40 }, (_, index) => (index < 20 ? -1 : 0))).high).toBeLessThan(0);
    expect(bootstrapInterval([])).toEqual({ low: 0, high: 0, confidence: 0.95 });
  });
});
