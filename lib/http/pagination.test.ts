import { describe, expect, it } from "vitest";
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from "@/contract";
import { listPaging, readLimit, timeAndIdPosition } from "./pagination";

const runs = listPaging("runs", timeAndIdPosition);
const position = ["2026-01-02T03:04:05.678Z", "0194f1c2-aaaa-7bbb-8ccc-123456789abc"] as const;
const request = (query: string) => new Request(`http://localhost/api/workflows/w/runs${query}`);

function refusal(act: () => unknown) {
  try {
    act();
  } catch (error) {
    return error as { code: string; message: string; details: Array<{ path: string }> };
  }
  throw new Error("expected a refusal");
}

describe("list paging", () => {
  it("gives back the position a cursor was made from, and a cursor is URL-safe text", () => {
    const cursor = runs.encode(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(runs.decode(cursor)).toEqual(position);
    expect(runs.read(request(`?cursor=${cursor}&limit=7`))).toEqual({ limit: 7, after: position });
  });

  it("reads the first page at the default size when the request names neither", () => {
    expect(runs.read(request(""))).toEqual({ limit: PAGE_LIMIT_DEFAULT });
    expect(runs.read(request("?cursor=&limit="))).toEqual({ limit: PAGE_LIMIT_DEFAULT });
  });

  it("answers the items under the list's key with the next cursor, or null on the last page", () => {
    expect(runs.answer("runs", { items: [1, 2], next: position })).toEqual({
      runs: [1, 2],
      nextCursor: runs.encode(position),
    });
    expect(runs.answer("runs", { items: [], next: null })).toEqual({ runs: [], nextCursor: null });
  });

  it.each([
    ["not base64url", "a+b/c="],
    ["base64url of something else", Buffer.from("hello").toString("base64url")],
    [
      "a position that is not a date and an id",
      Buffer.from(JSON.stringify(["runs", ["yesterday", "x"]])).toString("base64url"),
    ],
    ["an id that is not a string", Buffer.from(JSON.stringify(["runs", [position[0], 42]])).toString("base64url")],
    ["an overlong cursor", "A".repeat(5000)],
  ])("refuses %s with 400 naming cursor", (_what, cursor) => {
    expect(refusal(() => runs.read(request(`?cursor=${encodeURIComponent(cursor)}`)))).toMatchObject({
      code: "invalid_request",
      details: [{ path: "cursor" }],
    });
  });

  it("refuses a cursor another list made, saying so", () => {
    const workflows = listPaging("workflows", timeAndIdPosition);
    expect(refusal(() => runs.decode(workflows.encode(position))).message).toContain("made for another list");
  });

  it("refuses a limit outside 1 to the maximum, naming the maximum, rather than cutting it", () => {
    expect(readLimit(String(PAGE_LIMIT_MAX))).toBe(PAGE_LIMIT_MAX);
    for (const limit of [String(PAGE_LIMIT_MAX + 1), "0", "-3", "1.5", "1e2", "lots", "9".repeat(30)]) {
      const error = refusal(() => readLimit(limit));
      expect(error).toMatchObject({ code: "invalid_request", details: [{ path: "limit" }] });
      expect(error.message).toContain(`from 1 to ${PAGE_LIMIT_MAX}`);
    }
  });
});
