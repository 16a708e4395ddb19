import { describe, expect, it } from "vitest";
import { countOf, formatDollars, formatEstimatedDollars } from "./figures";

describe("countOf", () => {
  it("says one thing in the singular and every other count in the plural", () => {
    expect(countOf(1, "chunk")).toBe("1 chunk");
    expect(countOf(0, "chunk")).toBe("0 chunks");
    expect(countOf(2, "document")).toBe("2 documents");
    expect(countOf(1234, "token")).toBe("1,234 tokens");
    expect(countOf(3, "process", "processes")).toBe("3 processes");
    expect(countOf(1, "process", "processes")).toBe("1 process");
  });
});

describe("formatDollars", () => {
  it("shows a small cost exactly and zero as zero, never as a run of zeros", () => {
    expect(formatDollars(0)).toBe("$0.00");
    expect(formatDollars(0.00000002)).toBe("$0.00000002");
    expect(formatDollars(0.0000123)).toBe("$0.0000123");
    expect(formatDollars(0.001)).toBe("$0.001");
    expect(formatDollars(25)).toBe("$25.00");
    expect(formatDollars(1e-12)).toBe("<$0.0000000001");
  });
});

describe("formatEstimatedDollars", () => {
  it("rounds an estimate to cents, or to two significant digits below a cent", () => {
    expect(formatEstimatedDollars(0.00002211)).toBe("$0.000022");
    expect(formatEstimatedDollars(0.0012345)).toBe("$0.0012");
    expect(formatEstimatedDollars(0.0000105)).toBe("$0.00001");
    expect(formatEstimatedDollars(0.153)).toBe("$0.15");
    expect(formatEstimatedDollars(1204.5)).toBe("$1,204.50");
    expect(formatEstimatedDollars(0)).toBe("$0.00");
    expect(formatEstimatedDollars(1e-12)).toBe("<$0.0000000001");
  });
});
