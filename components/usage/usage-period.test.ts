import { describe, expect, it } from "vitest";
import { daysOf, lastDays } from "./usage-period";

describe("the Usage page's period", () => {
  it("takes the last N UTC days with today as the last", () => {
    const now = new Date("2025-03-10T23:30:00-05:00"); // already March 11 in UTC
    expect(lastDays(7, now)).toEqual({ from: "2025-03-05", to: "2025-03-11" });
    expect(lastDays(1, now)).toEqual({ from: "2025-03-11", to: "2025-03-11" });
  });

  it("lists every day of a period, the excluded end left out", () => {
    expect(daysOf({ from: "2025-02-27T00:00:00.000Z", to: "2025-03-02T00:00:00.000Z" })).toEqual([
      "2025-02-27",
      "2025-02-28",
      "2025-03-01",
    ]);
    expect(daysOf({ from: "2025-03-01T10:00:00.000Z", to: "2025-03-01T11:00:00.000Z" })).toEqual(["2025-03-01"]);
  });
});
