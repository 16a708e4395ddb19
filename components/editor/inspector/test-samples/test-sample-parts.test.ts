import { describe, expect, it } from "vitest";
import { BLOCK_TYPES, getBlockDefinition } from "@/blocks";
import { testSampleParts } from "./test-sample-parts";

const partsOf = (type: string, hasTools = false) => testSampleParts(getBlockDefinition(type), hasTools);

describe("the inspector's Test sample section, from the block definitions", () => {
  it("offers an HTTP sample for what the API and Function blocks send, and a page for the Web block", () => {
    expect(partsOf("api")).toMatchObject({ request: "the request", page: false, recordedAnswers: false, shown: true });
    expect(partsOf("function")).toMatchObject({ request: "every services.fetch", shown: true });
    expect(partsOf("web")).toMatchObject({ request: null, page: true, shown: true });
  });

  it("offers recorded answers for every block that calls a model, and tool samples once an agent lists tools", () => {
    for (const type of ["agent", "router", "evaluator"])
      expect(partsOf(type)).toMatchObject({ recordedAnswers: true, toolCalls: false, shown: true });
    expect(partsOf("agent", true)).toMatchObject({ recordedAnswers: true, toolCalls: true });
    expect(partsOf("router", true).toolCalls).toBe(false);
  });

  it("is not shown for blocks a test run treats as a real run does", () => {
    const shown = BLOCK_TYPES.filter((type) => partsOf(type, true).shown);
    expect(shown.sort()).toEqual(["agent", "api", "evaluator", "function", "router", "web"]);
    expect(partsOf("no-such-type").shown).toBe(false);
  });
});
