import { describe, expect, it } from "vitest";
import { secretsBetween } from "./rerun-secrets";

describe("secretsBetween", () => {
  it("finds the value behind each label, inside text, arrays and nested objects", () => {
    const clear = {
      content: "key=abc123XYZ and pw=hunter22!",
      list: ["tok_999888"],
      same: "plain",
      nested: { deep: "abc123XYZ" },
    };
    const masked = {
      content: "key=[secret:API_KEY] and pw=[secret:PASSWORD]",
      list: ["[secret:TOKEN]"],
      same: "plain",
      nested: { deep: "[secret:API_KEY]" },
    };
    expect(secretsBetween(clear, masked).sort()).toEqual([
      ["API_KEY", "abc123XYZ"],
      ["PASSWORD", "hunter22!"],
      ["TOKEN", "tok_999888"],
    ]);
  });

  it("finds nothing when the forms agree or do not line up", () => {
    expect(secretsBetween({ a: "same" }, { a: "same" })).toEqual([]);
    expect(secretsBetween({ a: "prefix value" }, { a: "other [secret:X]" })).toEqual([]);
    expect(secretsBetween("text with [secret:X] label", "text with [secret:X] label")).toEqual([]);
  });
});
