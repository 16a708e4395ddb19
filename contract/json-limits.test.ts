import { describe, expect, it } from "vitest";
import { describeJsonHazard, findJsonHazard, MAX_JSON_DEPTH } from "./json-limits";

const nested = (depth: number, open = "[", close = "]") => open.repeat(depth) + close.repeat(depth);

describe("findJsonHazard", () => {
  it("accepts nesting up to the limit and refuses one level more, naming where", () => {
    expect(findJsonHazard(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(findJsonHazard(nested(MAX_JSON_DEPTH + 1))).toMatchObject({ kind: "too_deep", limit: MAX_JSON_DEPTH });
    const hazard = findJsonHazard(`{"blocks":[{"id":"a"},{"config":{"data":${nested(200)}}}]}`, { maxDepth: 10 });
    expect(hazard).toEqual({ kind: "too_deep", limit: 10, path: "blocks[1].config.data[0][0]…[0][0]" });
    expect(describeJsonHazard(hazard!)).toBe(
      "is nested deeper than the limit of 10 levels (at blocks[1].config.data[0][0]…[0][0])",
    );
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    const text = JSON.stringify({ code: "[".repeat(5000), quoted: `\\"${"{".repeat(5000)}`, list: ["]", "[", '"[[['] });
    expect(findJsonHazard(text)).toBeNull();
    expect(findJsonHazard(`{"a\\"b":[${nested(3)}]}`, { maxDepth: 3 })).toEqual({
      kind: "too_deep",
      limit: 3,
      path: 'a"b[0][0]',
    });
  });

  it("stays linear on a large document (100,000 keys, a 5 MB string)", () => {
    const wide = JSON.stringify(
      Object.fromEntries(Array.from({ length: 100_000 }, (_, index) => [`key${index}`, [index]])),
    );
    const long = JSON.stringify({ text: 'x\\"[{'.repeat(1_000_000) });
    const started = performance.now();
    expect(findJsonHazard(wide, { refusePrototypeKeys: true })).toBeNull();
    expect(findJsonHazard(long, { refusePrototypeKeys: true })).toBeNull();
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("reports a __proto__ key only when asked, however it is escaped, and never a __proto__ value", () => {
    const text = '{"variables":{"ok":"__proto__","list":[{"\\u005f_proto__":{}}]}}';
    expect(findJsonHazard(text)).toBeNull();
    expect(findJsonHazard(text, { refusePrototypeKeys: true })).toEqual({
      kind: "prototype_key",
      path: "variables.list[0].__proto__",
    });
    expect(findJsonHazard('{"constructor":1,"prototype":2}', { refusePrototypeKeys: true })).toBeNull();
  });

  it("leaves malformed text to JSON.parse without misjudging it", () => {
    for (const text of ["]]]]", '{"a": "unclosed', "[[[", "{,,,}", ""]) expect(findJsonHazard(text)).toBeNull();
  });
});
