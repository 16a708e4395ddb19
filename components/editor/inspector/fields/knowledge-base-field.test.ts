import { describe, expect, it } from "vitest";
import { toggleKnowledgeBase } from "./knowledge-base-field";

describe("toggleKnowledgeBase", () => {
  it("adds a ticked base once, keeping the order chosen", () => {
    expect(toggleKnowledgeBase(["kb_a"], "kb_b", true)).toEqual(["kb_a", "kb_b"]);
    expect(toggleKnowledgeBase(["kb_a", "kb_b"], "kb_b", true)).toEqual(["kb_a", "kb_b"]);
  });

  it("removes a cleared base, and leaves the field empty (not []) when none is left", () => {
    expect(toggleKnowledgeBase(["kb_a", "kb_b"], "kb_a", false)).toEqual(["kb_b"]);
    expect(toggleKnowledgeBase(["kb_a"], "kb_a", false)).toBeUndefined();
  });
});
