import { describe, expect, it } from "vitest";
import { DiffBudget, diffText, TEXT_DIFF_CELLS } from "./text-diff";

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

  it("finds a change at the end of a long text without a table over the whole text", () => {
    const long = "word ".repeat(3000);
    expect(diffText(long, `${long}end`)).toEqual([
      { kind: "same", text: long },
      { kind: "added", text: "end" },
    ]);
  });

  it("shows a changed middle past the cell limit as one replacement, between the common start and end, in bounded time", () => {
    // Two 8,000-word middles with no word in common: a 64-million-cell table before the limit.
    const before = Array.from({ length: 8_000 }, (_, index) => `a${index} `).join("");
    const after = Array.from({ length: 8_000 }, (_, index) => `b${index} `).join("");
    const started = performance.now();
    const parts = diffText(`Start. ${before}End.`, `Start. ${after}End.`);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(parts).toEqual([
      { kind: "same", text: "Start. " },
      { kind: "removed", text: before },
      { kind: "added", text: after },
      { kind: "same", text: "End." },
    ]);
    expect(8_000 * 8_000).toBeGreaterThan(TEXT_DIFF_CELLS);
  });

  it("spends a shared allowance: once a comparison's cells are used up, further diffs are coarse", () => {
    const budget = new DiffBudget(30);
    expect(diffText("a cat sat", "a dog sat", budget)).toHaveLength(4);
    expect(budget.cellsLeft).toBe(26);
    expect(diffText("one two three four five six", "one 2 3 4 5 six", budget)).toEqual([
      { kind: "same", text: "one " },
      { kind: "removed", text: "two three four five " },
      { kind: "added", text: "2 3 4 5 " },
      { kind: "same", text: "six" },
    ]);
  });
});
