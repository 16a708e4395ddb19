import { describe, expect, it } from "vitest";
import { formatDateTime, formatTimeOfDay } from "./date-time";

describe("date and time formats", () => {
  const moment = new Date(2026, 10, 23, 17, 18, 9, 171);

  it("shows a time of day with hours, minutes, seconds and milliseconds, not milliseconds alone", () => {
    const text = formatTimeOfDay(moment);
    expect(text).toMatch(/17.18.09.171/);
  });

  it("shows a date and time to the second, with the year", () => {
    const text = formatDateTime(moment);
    expect(text).toContain("2026");
    expect(text).toMatch(/18.09/);
  });
});
