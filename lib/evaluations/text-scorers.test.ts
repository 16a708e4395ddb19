import { describe, expect, it } from "vitest";
import { scorerSchema, type ScorerInput } from "@/contract";
import { isLocalScorer, scoreLocally, type CaseOutcome } from "./text-scorers";

const outcome = (output: unknown, expected?: unknown, figures: Partial<CaseOutcome> = {}): CaseOutcome => ({
  input: {},
  output,
  expected,
  cost: 0.002,
  durationMs: 800,
  ...figures,
});

function score(scorer: ScorerInput, value: CaseOutcome) {
  const parsed = scorerSchema.parse(scorer);
  if (!isLocalScorer(parsed)) throw new Error("not a local scorer");
  return scoreLocally(parsed, value);
}

describe("local scorers", () => {
  it("exact: trimmed text, JSON with keys in any order, a field of the output", () => {
    expect(score({ type: "exact" }, outcome(" Paris\n", "Paris")).score).toBe(1);
    expect(score({ type: "exact" }, outcome("paris", "Paris")).score).toBe(0);
    expect(score({ type: "exact", caseSensitive: false }, outcome("paris", "Paris")).score).toBe(1);
    expect(score({ type: "exact" }, outcome({ b: 1, a: [1, 2] }, { a: [1, 2], b: 1 })).score).toBe(1);
    expect(score({ type: "exact", field: "answer" }, outcome({ answer: "42" }, "42")).score).toBe(1);
    expect(score({ type: "exact" }, outcome("x")).reason).toMatch(/no expected output/);
  });

  it("contains: the expected output or a given text, case-insensitive by default", () => {
    expect(score({ type: "contains" }, outcome("The capital is PARIS.", "paris")).score).toBe(1);
    expect(score({ type: "contains", value: "refund" }, outcome("No money back")).score).toBe(0);
  });

  it("regex and JSON Schema", () => {
    expect(score({ type: "regex", pattern: "^\\d{3}$" }, outcome("123")).score).toBe(1);
    expect(score({ type: "regex", pattern: "^\\d{3}$" }, outcome("12a")).score).toBe(0);
    const schema = { type: "object", properties: { total: { type: "number" } }, required: ["total"] };
    expect(score({ type: "jsonSchema", schema }, outcome('{"total": 3}')).score).toBe(1);
    const invalid = score({ type: "jsonSchema", schema }, outcome({ total: "3" }));
    expect(invalid.score).toBe(0);
    expect(invalid.reason).toContain("output/total must be number");
  });

  it("numeric: 1 within the tolerance, then falling with the relative error", () => {
    expect(score({ type: "numeric", tolerance: 0.5 }, outcome("10.4", 10)).score).toBe(1);
    expect(score({ type: "numeric" }, outcome(9, 10)).score).toBeCloseTo(0.9);
    expect(score({ type: "numeric" }, outcome(30, 10)).score).toBe(0);
    expect(score({ type: "numeric" }, outcome("ten", 10)).reason).toMatch(/is not a number/);
  });

  it("cost and duration limits", () => {
    expect(score({ type: "maxCost", maxCost: 0.002 }, outcome("x")).score).toBe(1);
    expect(score({ type: "maxCost", maxCost: 0.001 }, outcome("x")).score).toBe(0);
    expect(score({ type: "maxCost", maxCost: 1 }, outcome("x", undefined, { cost: null })).reason).toMatch(/unknown/);
    expect(score({ type: "maxDurationMs", maxDurationMs: 500 }, outcome("x")).reason).toBe(
      "the run took 800 ms, over 500",
    );
  });
});
