import { describe, expect, it } from "vitest";
import { PASSWORD_RULE, passwordProblem, safeReturnPath } from "./auth";

describe("passwordProblem", () => {
  it("accepts 10 to 128 characters and names the rule otherwise", () => {
    expect(passwordProblem("x".repeat(10))).toBeNull();
    expect(passwordProblem("x".repeat(128))).toBeNull();
    expect(passwordProblem("x".repeat(9))).toBe("The password is too short: use at least 10 characters.");
    expect(passwordProblem("x".repeat(129))).toBe("The password is too long: use at most 128 characters.");
    expect(PASSWORD_RULE).toBe("Passwords are 10 to 128 characters long.");
  });
});

describe("safeReturnPath", () => {
  it("keeps a path on this site and turns anything else into the home page", () => {
    expect(safeReturnPath("/workflows/abc?tab=runs")).toBe("/workflows/abc?tab=runs");
    for (const value of [
      undefined,
      null,
      "",
      "https://evil.example/",
      "//evil.example",
      "/\\evil.example",
      "/\t/evil.example",
      "workflows",
    ]) {
      expect(safeReturnPath(value)).toBe("/");
    }
  });
});
