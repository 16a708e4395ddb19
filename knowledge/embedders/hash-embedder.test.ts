import { describe, expect, it } from "vitest";
import { createHashEmbedder, hashEmbed, OFFLINE_EMBEDDER_DIMENSIONS } from "./hash-embedder";
import { termsOf } from "./terms";

const dot = (a: number[], b: number[]) => a.reduce((sum, value, index) => sum + value * (b[index] ?? 0), 0);

describe("hash embedder", () => {
  it("gives deterministic unit vectors of the fixed dimension", () => {
    const vector = hashEmbed("Customers may request a full refund");
    expect(vector).toHaveLength(OFFLINE_EMBEDDER_DIMENSIONS);
    expect(dot(vector, vector)).toBeCloseTo(1, 10);
    expect(hashEmbed("Customers may request a full refund")).toEqual(vector);
  });

  it("scores texts that share words above texts that do not", () => {
    const query = hashEmbed("refund policy");
    const related = hashEmbed("Our refund policy: refunds within 30 days of purchase.");
    const unrelated = hashEmbed("Employees accrue 25 days of paid vacation per year.");
    expect(dot(query, related)).toBeGreaterThan(0.3);
    expect(dot(query, related)).toBeGreaterThan(dot(query, unrelated) + 0.2);
  });

  it("matches words, not meaning: a synonym with no shared word scores near zero", () => {
    expect(Math.abs(dot(hashEmbed("refund"), hashEmbed("reimbursement")))).toBeLessThan(0.2);
  });

  it("gives a zero vector for text with no words, not NaN", () => {
    expect(hashEmbed("!!! ...").every((value) => value === 0)).toBe(true);
  });

  it("stems and drops stop words", () => {
    expect(termsOf("The refunds were Refunded")).toEqual(["refund", "refund"]);
  });

  it("reports tokens and a zero cost", async () => {
    const result = await createHashEmbedder().embed(["hello world", "again"]);
    expect(result.embeddings).toHaveLength(2);
    expect(result.usage.tokens.prompt).toBe(3);
    expect(result.usage.cost).toEqual({ input: 0, output: 0, total: 0 });
  });
});
