import { describe, expect, it } from "vitest";
import { diffText } from "./text-diff";

const side = (parts: ReturnType<typeof diffText>, keep: "added" | "removed") =>
  parts
    .filter((part) => part.kind === "same" || part.kind === keep)
    .map((part) => part.text)
    .join("");

describe("diffText", () => {
  it("marks the changed words and gives both texts back exactly", () => {
    const from = "Tea is made of leaves and water.";
    const to = "Tea is made of dried leaves and hot water.";
    const parts = diffText(from, to);
    expect(parts).toEqual([
      { kind: "same", text: "Tea is made of " },
      { kind: "added", text: "dried " },
      { kind: "same", text: "leaves and " },
      { kind: "added", text: "hot " },
      { kind: "same", text: "water." },
    ]);
    expect(side(parts, "removed")).toBe(from);
    expect(side(parts, "added")).toBe(to);
  });

  it("shows a replaced word as a removal and an addition, and handles empty sides", () => {
    expect(diffText("a cat sat", "a dog sat")).toEqual([
      { kind: "same", text: "a " },
      { kind: "removed", text: "cat " },
      { kind: "added", text: "dog " },
      { kind: "same", text: "sat" },
    ]);
    expect(diffText("", "new")).toEqual([{ kind: "added", text: "new" }]);
    expect(diffText("old", "")).toEqual([{ kind: "removed", text: "old" }]);
  });

  it("keeps very long texts as one replacement instead of building a huge table", () => {
    const long = "word ".repeat(3000);
    const parts = diffText(long, `${long}end`);
    expect(parts).toEqual([
      { kind: "removed", text: long },
      { kind: "added", text: `${long}end` },
    ]);
  });
});
