import { describe, expect, it } from "vitest";
import type { BlockMemo } from "@/core";
import { recordedCall } from "./recorded-call";

/** A block memo over a map, as the run's checkpoint store gives one; `replaying` as a replay's does. */
function memoOver(stored: Map<string, unknown>, replaying = false): BlockMemo {
  const counts = new Map<string, number>();
  return {
    next(kind) {
      const index = counts.get(kind) ?? 0;
      counts.set(kind, index + 1);
      return `${kind}#${index}`;
    },
    recall: (key) => stored.get(key),
    remember: async (key, value) => {
      stored.set(key, JSON.parse(JSON.stringify(value)));
    },
    ...(replaying ? { replaying: true } : {}),
  };
}

describe("recordedCall", () => {
  it("records each answer in call order and gives it back to a later attempt without calling", async () => {
    const stored = new Map<string, unknown>();
    let calls = 0;
    const call = async () => ({ order: ++calls });
    const first = memoOver(stored);
    expect(await recordedCall(first, "http", "GET request", call, { asked: { url: "a" } })).toEqual({ order: 1 });
    expect(await recordedCall(first, "http", "GET request", call, { asked: { url: "b" } })).toEqual({ order: 2 });
    const resumed = memoOver(stored);
    expect(await recordedCall(resumed, "http", "GET request", call, { asked: { url: "a" } })).toEqual({ order: 1 });
    expect(await recordedCall(resumed, "http", "GET request", call, { asked: { url: "b" } })).toEqual({ order: 2 });
    expect(calls).toBe(2);
  });

  it("in a replay, answers a request asked the same way (keys in any order) and refuses a changed or unrecorded one without calling", async () => {
    const stored = new Map<string, unknown>();
    await recordedCall(memoOver(stored), "search", "knowledge search", async () => ({ hits: 3 }), {
      asked: { query: "tea", topK: 5 },
    });
    let called = false;
    const never = async () => {
      called = true;
      return { hits: 0 };
    };
    expect(
      await recordedCall(memoOver(stored, true), "search", "knowledge search", never, {
        asked: { topK: 5, query: "tea" },
      }),
    ).toEqual({ hits: 3 });
    await expect(
      recordedCall(memoOver(stored, true), "search", "knowledge search", never, {
        asked: { query: "coffee", topK: 5 },
      }),
    ).rejects.toMatchObject({
      code: "not_recorded",
      message: expect.stringContaining("this knowledge search asks something else than the replayed run's did"),
    });
    const replay = memoOver(stored, true);
    await recordedCall(replay, "search", "knowledge search", never, { asked: { query: "tea", topK: 5 } });
    await expect(recordedCall(replay, "search", "knowledge search", never)).rejects.toMatchObject({
      code: "not_recorded",
      message: expect.stringContaining("the replayed run made no knowledge search here"),
    });
    expect(called).toBe(false);
  });

  it("calls straight through without a memo (a child run keeps none)", async () => {
    expect(await recordedCall(undefined, "page", "web page read", async () => "page")).toBe("page");
  });
});
