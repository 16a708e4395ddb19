import { describe, expect, it } from "vitest";
import { TrellisError } from "@/executor";
import { parseCronSchedule, upcomingFireTimes } from "./cron-schedule";
import { dueFires, firesSince } from "./due-fires";

/** The 400 parseCronSchedule throws: its message and the detail's path. */
function refusal(cron: string, timezone = "UTC"): { code: string; message: string; path: string | undefined } {
  try {
    parseCronSchedule(cron, timezone, new Date("2026-03-01T00:00:00Z"));
  } catch (error) {
    if (!(error instanceof TrellisError)) throw error;
    return {
      code: error.code,
      message: error.message,
      path: (error.details as { path: string }[] | undefined)?.[0]?.path,
    };
  }
  throw new Error(`"${cron}" in ${timezone} was accepted`);
}

const iso = (dates: Date[]) => dates.map((date) => date.toISOString());

describe("cron expressions", () => {
  it("take 5 fields, or 6 with seconds first", () => {
    const everyFive = parseCronSchedule("  */5   * * * * ", "UTC");
    expect(everyFive.cron).toBe("*/5 * * * *");
    expect(iso(everyFive.nextRuns(3, new Date("2026-03-01T10:02:30Z")))).toEqual([
      "2026-03-01T10:05:00.000Z",
      "2026-03-01T10:10:00.000Z",
      "2026-03-01T10:15:00.000Z",
    ]);
    const withSeconds = parseCronSchedule("30 */5 * * * *", "UTC");
    expect(iso(withSeconds.nextRuns(2, new Date("2026-03-01T10:02:30Z")))).toEqual([
      "2026-03-01T10:05:30.000Z",
      "2026-03-01T10:10:30.000Z",
    ]);
    const everySecond = parseCronSchedule("* * * * * *", "UTC");
    expect(iso(everySecond.nextRuns(2, new Date("2026-03-01T10:00:00.400Z")))).toEqual([
      "2026-03-01T10:00:01.000Z",
      "2026-03-01T10:00:02.000Z",
    ]);
  });

  it("refuse another number of fields, nicknames and malformed fields with a 400 naming the expression", () => {
    expect(refusal("* * * *")).toEqual({
      code: "invalid_request",
      path: "cron",
      message: expect.stringContaining('The cron expression "* * * *" has 4 fields; it needs 5 fields'),
    });
    expect(refusal("0 0 12 * * * 2030").message).toContain('"0 0 12 * * * 2030" has 7 fields');
    expect(refusal("@daily").message).toContain('"@daily" is a nickname');
    expect(refusal("   ").message).toContain("The cron expression is empty");
    expect(refusal("61 * * * *")).toMatchObject({
      path: "cron",
      message: expect.stringMatching(/"61 \* \* \* \*" is not valid: .*minute: 61/),
    });
    expect(refusal("*/0 * * * *").message).toMatch(/"\*\/0 \* \* \* \*" is not valid: .*stepping/);
    expect(refusal("every day at noon * *").message).toContain('"every day at noon * *" is not valid');
  });

  it("refuse an expression that never fires, naming it", () => {
    expect(refusal("0 0 30 2 *")).toEqual({
      code: "invalid_request",
      path: "cron",
      message: expect.stringContaining('The cron expression "0 0 30 2 *" never fires'),
    });
    expect(refusal("0 0 31 4 *").message).toContain('"0 0 31 4 *" never fires');
    // February 29 is rare, not never.
    expect(iso(parseCronSchedule("0 0 29 2 *", "UTC").nextRuns(1, new Date("2026-03-01T00:00:00Z")))).toEqual([
      "2028-02-29T00:00:00.000Z",
    ]);
  });

  it("take an IANA time zone and refuse anything else, naming it", () => {
    expect(parseCronSchedule("0 9 * * *", "utc").timezone).toBe("UTC");
    expect(parseCronSchedule("0 9 * * *", "Europe/Paris").timezone).toBe("Europe/Paris");
    expect(refusal("0 9 * * *", "Mars/Olympus")).toEqual({
      code: "invalid_request",
      path: "timezone",
      message: expect.stringContaining('"Mars/Olympus" is not a time zone'),
    });
    expect(refusal("0 9 * * *", "+02:00").path).toBe("timezone");
    expect(refusal("0 9 * * *", "").path).toBe("timezone");
  });

  it("fire at the zone's wall-clock time across a DST change", () => {
    // New York springs forward on 8 March 2026 (EST, UTC-5, to EDT, UTC-4): 9:00 stays 9:00 local.
    const nineInNewYork = parseCronSchedule("0 9 * * *", "America/New_York");
    expect(upcomingFireTimes(nineInNewYork, new Date("2026-03-06T20:00:00Z"))).toEqual([
      "2026-03-07T14:00:00.000Z",
      "2026-03-08T13:00:00.000Z",
      "2026-03-09T13:00:00.000Z",
      "2026-03-10T13:00:00.000Z",
      "2026-03-11T13:00:00.000Z",
    ]);
    // 2:30 does not exist on 8 March in New York: that day it fires at the first moment after the gap, once.
    const halfPastTwo = parseCronSchedule("30 2 * * *", "America/New_York");
    expect(iso(halfPastTwo.nextRuns(3, new Date("2026-03-07T12:00:00Z")))).toEqual([
      "2026-03-08T07:00:00.000Z",
      "2026-03-09T06:30:00.000Z",
      "2026-03-10T06:30:00.000Z",
    ]);
  });

  it("find the latest fire time at or before a moment", () => {
    const hourly = parseCronSchedule("0 * * * *", "UTC");
    expect(hourly.latestAtOrBefore(new Date("2026-01-01T05:00:00.000Z"))?.toISOString()).toBe(
      "2026-01-01T05:00:00.000Z",
    );
    expect(hourly.latestAtOrBefore(new Date("2026-01-01T05:59:59.999Z"))?.toISOString()).toBe(
      "2026-01-01T05:00:00.000Z",
    );
  });
});

describe("due fire times", () => {
  const hourly = parseCronSchedule("0 * * * *", "UTC");
  const everySecond = parseCronSchedule("* * * * * *", "UTC");

  it("are the times just past, each once, when a process was looking", () => {
    const fires = dueFires(
      everySecond,
      new Date("2026-01-01T05:00:00.000Z"),
      new Date("2026-01-01T05:00:02.300Z"),
      10_000,
    );
    expect(fires.map((fire) => [fire.fireAt.toISOString(), fire.missed])).toEqual([
      ["2026-01-01T05:00:01.000Z", false],
      ["2026-01-01T05:00:02.000Z", false],
    ]);
    expect(dueFires(hourly, new Date("2026-01-01T05:00:00Z"), new Date("2026-01-01T05:59:59Z"), 10_000)).toEqual([]);
  });

  it("collapse to one late fire, marked missed, for the latest time when nothing ran for hours", () => {
    const since = new Date("2026-01-01T01:00:00Z");
    const now = new Date("2026-01-01T07:20:00Z");
    expect(dueFires(hourly, since, now, 10_000)).toEqual([{ fireAt: new Date("2026-01-01T07:00:00Z"), missed: true }]);
    expect(dueFires(everySecond, since, now, 10_000)).toEqual([
      { fireAt: new Date("2026-01-01T07:20:00Z"), missed: true },
    ]);
  });

  it("start after the last fire, the last resume or the creation, whichever is latest", () => {
    const createdAt = new Date("2026-01-01T00:00:00Z");
    expect(firesSince({ createdAt, lastFireAt: null, resumedAt: null })).toEqual(createdAt);
    expect(
      firesSince({
        createdAt,
        lastFireAt: new Date("2026-01-01T03:00:00Z"),
        resumedAt: new Date("2026-01-01T05:00:00Z"),
      }),
    ).toEqual(new Date("2026-01-01T05:00:00Z"));
  });
});
