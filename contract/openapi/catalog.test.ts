import { describe, expect, it } from "vitest";
import { API_OPERATIONS, operationById } from "./catalog";
import { fillPath } from "./operation-path";

describe("the operation catalog", () => {
  it("names each operation once, with a summary, and marks member operations with the weakest role", () => {
    const ids = API_OPERATIONS.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const operation of API_OPERATIONS) {
      expect(operation.summary.length, operation.operationId).toBeGreaterThan(5);
      expect(operation.role !== undefined, operation.operationId).toBe(operation.access === "member");
    }
  });
});

describe("fillPath", () => {
  it("encodes each parameter as one segment, and keeps a rest parameter's slashes as separators", () => {
    expect(fillPath(operationById("diffRuns"), { id: "a/b", otherId: "c d" })).toBe("/api/runs/a%2Fb/diff/c%20d");
    expect(fillPath(operationById("putPriceOverride"), { model: "ollama/llama 3" })).toBe(
      "/api/prices/ollama/llama%203",
    );
    expect(() => fillPath(operationById("getRun"), {})).toThrow("no value for {id}");
  });
});
