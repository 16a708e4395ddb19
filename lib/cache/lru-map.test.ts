import { describe, expect, it } from "vitest";
import { LruMap } from "./lru-map";

describe("LruMap", () => {
  it("keeps at most its size, dropping the entry read or set longest ago", () => {
    const map = new LruMap<string, number>(2);
    map.set("a", 1);
    map.set("b", 2);
    expect(map.get("a")).toBe(1); // "a" is now the newest
    map.set("c", 3);
    expect(map.get("b")).toBeUndefined();
    expect(map.get("a")).toBe(1);
    expect(map.get("c")).toBe(3);
    expect(map.size).toBe(2);
  });

  it("drops the entries a predicate matches", () => {
    const map = new LruMap<string, number>(10);
    for (const key of ["w1/a", "w1/b", "w2/a"]) map.set(key, 0);
    map.deleteWhere((key) => key.startsWith("w1/"));
    expect(map.size).toBe(1);
    expect(map.get("w2/a")).toBe(0);
  });

  it("refuses a size that keeps nothing", () => {
    expect(() => new LruMap(0)).toThrow(RangeError);
  });
});
