import { describe, expect, it } from "vitest";
import { CancelledError, errorInfo, failureCarrying, isTrellisError, ProviderCallError, TrellisError } from "./errors";
import { addUsage } from "./usage";

const firstCall = {
  tokens: { prompt: 100, completion: 20, total: 120 },
  cost: { input: 0.001, output: 0.0004, total: 0.0014 },
};
const secondCall = {
  tokens: { prompt: 150, completion: 0, total: 150 },
  cost: { input: 0.0015, output: 0, total: 0.0015 },
};

describe("a failure that carries what it spent", () => {
  it("is built with its spend and partial output, which no one can change afterwards", () => {
    const error = new ProviderCallError("openai", "the stream broke", {
      code: "stream_interrupted",
      spent: firstCall,
      partialOutput: { content: "Refunds" },
    });
    expect(error).toMatchObject({ spent: firstCall, partialOutput: { content: "Refunds" } });
    expect(() => {
      (error as { spent?: unknown }).spent = secondCall;
    }).toThrow(TypeError);
    expect(error.spent).toBe(firstCall);
  });

  it("adds a caller's earlier spending as a new failure of the same kind, leaving the one it caught as it was", () => {
    const caught = new ProviderCallError("anthropic", "rate limit hit", {
      code: "rate_limited",
      status: 429,
      retryable: true,
      spent: secondCall,
    });
    const thrown = failureCarrying(caught, { spent: addUsage(firstCall, caught.spent!) });

    expect(thrown).toBeInstanceOf(ProviderCallError);
    expect(thrown).toMatchObject({
      code: "rate_limited",
      message: "rate limit hit",
      provider: "anthropic",
      status: 429,
      retryable: true,
    });
    expect(thrown.spent?.tokens.total).toBe(270);
    expect(thrown.spent?.cost?.total).toBeCloseTo(0.0029, 12);
    expect(thrown.stack).toBe(caught.stack);
    expect(errorInfo(thrown)).toEqual({ code: "rate_limited", message: "rate limit hit" });
    expect(caught.spent).toBe(secondCall);
  });

  it("never changes a shared error, such as the cancel that stopped every block of a run", () => {
    const cancel = new CancelledError();
    const one = failureCarrying(cancel, { spent: firstCall, partialOutput: { content: "half" } });
    const other = failureCarrying(cancel, { spent: secondCall });
    expect(cancel.spent).toBeUndefined();
    expect(cancel.partialOutput).toBeUndefined();
    expect(one).toMatchObject({ code: "cancelled", spent: firstCall, partialOutput: { content: "half" } });
    expect(other.spent).toBe(secondCall);
    expect(other.partialOutput).toBeUndefined();
  });

  it("keeps an error's own partial output when only the spending is given", () => {
    const caught = new TrellisError("block_failed", "tool failed", { partialOutput: { content: "so far" } });
    expect(failureCarrying(caught, { spent: firstCall })).toMatchObject({
      spent: firstCall,
      partialOutput: { content: "so far" },
    });
  });

  it("turns anything else thrown into an internal error that carries the spending and the original as its cause", () => {
    const thrown = new RangeError("index out of range");
    const failure = failureCarrying(thrown, { spent: firstCall });
    expect(isTrellisError(failure)).toBe(true);
    expect(failure).toMatchObject({
      code: "internal_error",
      message: "index out of range",
      spent: firstCall,
      cause: thrown,
    });
  });
});
