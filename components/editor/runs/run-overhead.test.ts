import { describe, expect, it } from "vitest";
import { overheadParts } from "./run-overhead";

describe("overheadParts", () => {
  it("names where a run's time went outside its blocks, largest first, leaving out what took under a millisecond", () => {
    expect(
      overheadParts({ queueMs: 1_500, startMs: 3, storageMs: 12, betweenBlocksMs: 0 }).map((part) => part.text),
    ).toEqual(["queued 1.50 s", "storage 12 ms", "start 3 ms"]);
  });

  it("shows nothing for a run that has not ended or ended before the figures were kept", () => {
    expect(overheadParts(null)).toEqual([]);
    expect(overheadParts(undefined)).toEqual([]);
  });
});
