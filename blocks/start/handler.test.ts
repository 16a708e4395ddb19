import { describe, expect, it } from "vitest";
import { RESERVED_NAME_MESSAGE } from "@/contract";
import type { HandlerContext } from "@/core";
import { withConfigParsing } from "../__fixtures__/with-config-parsing";
import { startDefinition } from "./definition";
import { startHandler } from "./handler";

function context(runInput: Record<string, unknown>): HandlerContext {
  return {
    runId: "r",
    workflowId: "w",
    block: {
      id: "start",
      type: "start",
      name: "Start",
      position: { x: 0, y: 0 },
      parentId: null,
      enabled: true,
      config: {},
    },
    signal: new AbortController().signal,
    emitDelta: () => undefined,
    startSpan: () => {
      throw new Error("not used");
    },
    outgoingTargets: [],
    variables: {},
    depth: 0,
    runInput,
  };
}

const start = withConfigParsing("start", startHandler);

const inputs = [
  { name: "question", type: "string" },
  { name: "limit", type: "number", default: 5 },
  { name: "verbose", type: "boolean", default: false },
  { name: "tags", type: "array", default: [] },
];

describe("start handler", () => {
  it("returns the run input with defaults applied and extra fields kept", async () => {
    const result = await start({
      config: { inputs },
      inputs: {},
      context: context({ question: "Why?", limit: "10", extra: { a: 1 } }),
    });
    expect(result.output).toEqual({ question: "Why?", limit: 10, verbose: false, tags: [], extra: { a: 1 } });
  });

  it("accepts text for booleans from forms", async () => {
    const result = await start({
      config: { inputs },
      inputs: {},
      context: context({ question: "q", verbose: "true" }),
    });
    expect(result.output.verbose).toBe(true);
  });

  it("refuses a missing required input and a value of the wrong type, naming the input", async () => {
    await expect(start({ config: { inputs }, inputs: {}, context: context({}) })).rejects.toThrow(
      "Run input 'question' is required (it has no default)",
    );
    await expect(
      start({ config: { inputs }, inputs: {}, context: context({ question: "q", limit: "many" }) }),
    ).rejects.toThrow("Run input 'limit' must be a number, got string");
    await expect(
      start({ config: { inputs }, inputs: {}, context: context({ question: "q", tags: "a,b" }) }),
    ).rejects.toThrow("Run input 'tags' must be an array, got string");
  });

  it("refuses a run input under a reserved name, however the run was started", async () => {
    const sent = JSON.parse('{"question":"q","__proto__":{"admin":true}}') as Record<string, unknown>;
    await expect(start({ config: { inputs }, inputs: {}, context: context(sent) })).rejects.toMatchObject({
      code: "invalid_input",
      message: expect.stringContaining("Run input '__proto__' is a reserved name") as unknown,
    });
    await expect(
      start({ config: { inputs }, inputs: {}, context: context({ question: "q", constructor: 1 }) }),
    ).rejects.toThrow("Run input 'constructor'");
  });

  it("refuses to save a start input named like a built-in field of every object", () => {
    const parsed = startDefinition.configSchema.safeParse({
      inputs: [{ name: "message" }, { name: "__proto__" }, { name: "prototype" }],
    });
    expect(parsed.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["inputs.1.name", RESERVED_NAME_MESSAGE],
      ["inputs.2.name", RESERVED_NAME_MESSAGE],
    ]);
  });
});
