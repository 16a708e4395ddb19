import { describe, expect, it } from "vitest";
import { ingestTimeBudgetMs } from "./knowledge-settings";

const env = (value: string | undefined) => (name: string) =>
  name === "TRELLIS_INGEST_TIME_BUDGET_MS" ? value : undefined;

describe("ingestTimeBudgetMs", () => {
  it("is two minutes unless TRELLIS_INGEST_TIME_BUDGET_MS says otherwise", () => {
    expect(ingestTimeBudgetMs(env(undefined))).toBe(120_000);
    expect(ingestTimeBudgetMs(env(" "))).toBe(120_000);
    expect(ingestTimeBudgetMs(env("300000"))).toBe(300_000);
  });

  it("refuses a value that is not a whole number of milliseconds in range, naming the setting", () => {
    for (const value of ["2m", "1.5", "999", "-1"]) {
      expect(() => ingestTimeBudgetMs(env(value))).toThrow(
        `TRELLIS_INGEST_TIME_BUDGET_MS must be a whole number from 1000 to 86400000, not "${value}"`,
      );
    }
  });
});
