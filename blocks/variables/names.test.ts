import { describe, expect, it } from "vitest";
import { freshVariableName, VARIABLE_NAME } from "@/blocks";

describe("variable names", () => {
  it("offers a var<n> name none of the taken names uses", () => {
    expect(freshVariableName(["var1", "var3"])).toBe("var4");
    expect(freshVariableName(["var2"])).toBe("var3");
    expect(freshVariableName([])).toBe("var1");
  });

  it("accepts what <variable.name> can name", () => {
    expect(VARIABLE_NAME.test("count_2")).toBe(true);
    expect(VARIABLE_NAME.test("2count")).toBe(false);
    expect(VARIABLE_NAME.test("a.b")).toBe(false);
  });
});
