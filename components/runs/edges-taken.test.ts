import { describe, expect, it } from "vitest";
import type { BlockRunState } from "@/components/editor/store";
import { isEdgeTaken } from "./edges-taken";

const state = (status: BlockRunState["status"], extra: Partial<BlockRunState> = {}): BlockRunState => ({ status, text: "", ...extra });

describe("edges taken by a run", () => {
  const blocks = {
    router: state("succeeded"),
    support: state("running"),
    sales: state("skipped"),
    api: state("failed", { handled: true }),
    fallback: state("succeeded"),
    after: state("pending"),
    loop: state("running"),
    child: state("succeeded"),
  };

  it("lights the path to a block that ran, not the one skipped or not yet reached", () => {
    expect(isEdgeTaken(blocks, { source: "router", target: "support", sourceHandle: "out" })).toBe(true);
    expect(isEdgeTaken(blocks, { source: "router", target: "sales", sourceHandle: "out" })).toBe(false);
    expect(isEdgeTaken(blocks, { source: "fallback", target: "after", sourceHandle: "out" })).toBe(false);
  });

  it("follows an error edge only after a handled failure", () => {
    expect(isEdgeTaken(blocks, { source: "api", target: "fallback", sourceHandle: "error" })).toBe(true);
    expect(isEdgeTaken(blocks, { source: "api", target: "fallback", sourceHandle: "out" })).toBe(false);
    expect(isEdgeTaken(blocks, { source: "router", target: "support", sourceHandle: "error" })).toBe(false);
  });

  it("lights a container's body edge while the container runs", () => {
    expect(isEdgeTaken(blocks, { source: "loop", target: "child", sourceHandle: "body" })).toBe(true);
    expect(isEdgeTaken(blocks, { source: "loop", target: "child", sourceHandle: "out" })).toBe(false);
  });
});
