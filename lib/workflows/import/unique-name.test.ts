import { describe, expect, it } from "vitest";
import { uniqueWorkflowName } from "./unique-name";

describe("uniqueWorkflowName", () => {
  it("keeps a free name, and otherwise adds (copy), (copy 2), … as Duplicate does", () => {
    expect(uniqueWorkflowName("Support", new Set(["Sales"]))).toBe("Support");
    expect(uniqueWorkflowName("Support", new Set(["Support"]))).toBe("Support (copy)");
    expect(uniqueWorkflowName("Support", new Set(["Support", "Support (copy)", "Support (copy 2)"]))).toBe(
      "Support (copy 3)",
    );
  });

  it("stays within the 200 characters a name may have", () => {
    const long = "x".repeat(200);
    const renamed = uniqueWorkflowName(long, new Set([long]));
    expect(renamed).toHaveLength(200);
    expect(renamed.endsWith(" (copy)")).toBe(true);
  });
});
