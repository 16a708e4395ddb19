import { describe, expect, it } from "vitest";
import { blockTypeCaption } from "./block-caption";

describe("blockTypeCaption", () => {
  it("leaves the type out when the name is the type's label, numbered or not", () => {
    expect(blockTypeCaption("Agent", "Agent", "agent")).toBeNull();
    expect(blockTypeCaption("Agent 2", "Agent", "agent")).toBeNull();
    expect(blockTypeCaption("Loop 1", "Loop", "loop")).toBeNull();
    expect(blockTypeCaption("api call", "API Call", "api")).toBeNull();
  });

  it("shows the type under a name of its own, and says so when the type is unknown", () => {
    expect(blockTypeCaption("Summariser", "Agent", "agent")).toBe("Agent");
    expect(blockTypeCaption("Agent smith", "Agent", "agent")).toBe("Agent");
    expect(blockTypeCaption("Thing", undefined, "gone")).toBe('Unknown type "gone"');
  });
});
