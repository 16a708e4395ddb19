import { describe, expect, it } from "vitest";
import { freshVariableName } from "@/blocks";
import { convertValue, nameProblem, parseTyped, renameVariable, typeOfValue } from "./variable-values";

describe("workflow variable values", () => {
  it("reads a variable's type from its value, so documents without types keep theirs", () => {
    expect([
      typeOfValue("hi"),
      typeOfValue(3),
      typeOfValue(false),
      typeOfValue({ a: 1 }),
      typeOfValue([1]),
      typeOfValue(null),
    ]).toEqual(["string", "number", "boolean", "json", "json", "json"]);
  });

  it("converts a value to a new type where it reads sensibly", () => {
    expect(convertValue("42", "number")).toBe(42);
    expect(convertValue("forty", "number")).toBe(0);
    expect(convertValue(7, "string")).toBe("7");
    expect(convertValue({ a: 1 }, "string")).toBe('{"a":1}');
    expect(convertValue("true", "boolean")).toBe(true);
    expect(convertValue('{"a":[1]}', "json")).toEqual({ a: [1] });
    expect(convertValue("plain", "json")).toEqual({});
    // A value that already has the type stays as it is: its type is inferred from it again.
    expect(typeOfValue(convertValue("x", "json"))).toBe("json");
  });

  it("refuses names that <variable.name> could not read, and taken names", () => {
    expect(nameProblem("count_2", ["other"])).toBeNull();
    expect(nameProblem("my-var", [])).toBe("Use a letter or _ first, then letters, digits or _");
    expect(nameProblem("2x", [])).toBe("Use a letter or _ first, then letters, digits or _");
    expect(nameProblem("other", ["other"])).toBe("'other' is already a variable");
  });

  it("renames in place and picks a free name for a new variable", () => {
    expect(Object.entries(renameVariable({ a: 1, b: 2, c: 3 }, "b", "beta"))).toEqual([
      ["a", 1],
      ["beta", 2],
      ["c", 3],
    ]);
    // The panel names a new variable as Set Variables names a new assignment (one definition, @/blocks).
    expect(freshVariableName(Object.keys({ var1: 1, var3: 2 }))).toBe("var4");
  });

  it("parses the number and JSON boxes, saying what is wrong", () => {
    expect(parseTyped("3.5", "number")).toEqual({ ok: true, value: 3.5 });
    expect(parseTyped("abc", "number")).toEqual({ ok: false, problem: "Enter a number" });
    expect(parseTyped('{"k": true}', "json")).toEqual({ ok: true, value: { k: true } });
    expect(parseTyped("{k}", "json")).toEqual({ ok: false, problem: "Not valid JSON" });
  });
});
