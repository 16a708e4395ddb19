import { describe, expect, it } from "vitest";
import { nextRole } from "./memories-field";
import { moved } from "./reorder";

describe("moved", () => {
  it("moves a row up or down and leaves the list alone past its ends", () => {
    expect(moved(["a", "b", "c"], 2, 1)).toEqual(["a", "c", "b"]);
    expect(moved(["a", "b", "c"], 0, 1)).toEqual(["b", "a", "c"]);
    expect(moved(["a", "b"], 0, -1)).toEqual(["a", "b"]);
  });
});

describe("nextRole", () => {
  it("alternates user and assistant, starting with user", () => {
    expect(nextRole([])).toBe("user");
    expect(nextRole([{ role: "user" }])).toBe("assistant");
    expect(nextRole([{ role: "user" }, { role: "assistant" }])).toBe("user");
  });
});
