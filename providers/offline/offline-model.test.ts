import { describe, expect, it } from "vitest";
import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";
import { jsonSchema, Output, type JSONSchema7 } from "ai";
import { runModel } from "../model-call";
import { createModelRegistry } from "../model-registry";
import { createInMemoryHandlerContext } from "../testing/in-memory-handler-context";
import { valueFromSchema } from "./json-from-schema";

// An independent encoder, so the test checks the counts rather than reusing the code under test.
const encoder = new Tiktoken(o200kBase);
const tokens = (text: string) => encoder.encode(text).length;

function run(options: Partial<Parameters<typeof runModel>[0]> & Pick<Parameters<typeof runModel>[0], "messages">) {
  // No env at all: the offline model needs no key, no base URL and no network.
  const model = createModelRegistry({ env: () => undefined }).resolve("offline/echo");
  const context = createInMemoryHandlerContext();
  return runModel({ model, hooks: { signal: context.signal, startSpan: context.startSpan, onTextDelta: context.emitDelta }, ...options }).then((result) => ({
    result,
    context,
  }));
}

describe("offline/echo", () => {
  it("echoes the last user message in chunks, with exact o200k_base counts and cost 0", async () => {
    const { result, context } = await run({ system: "Be brief.", messages: [{ role: "user", content: "What is Trellis?" }] });
    expect(result.text).toBe("Echo: What is Trellis?");
    expect(context.deltas.length).toBeGreaterThan(1);
    expect(context.deltas.join("")).toBe(result.text);
    expect(result.usage.tokens).toEqual({
      prompt: tokens("Be brief.\nWhat is Trellis?"),
      completion: tokens("Echo: What is Trellis?"),
      total: tokens("Be brief.\nWhat is Trellis?") + tokens("Echo: What is Trellis?"),
    });
    expect(result.usage.cost).toEqual({ input: 0, output: 0, total: 0 });
    expect(result.usage.estimated).toBeUndefined();
  });

  it("answers a routing prompt with the candidate the request mentions, else the first", async () => {
    const system = "Available Target Blocks:\nID: sales\nType: agent\nTitle: Sales Agent\n---\nID: agent2\nType: agent\nTitle: Support Agent\n---";
    const named = await run({ system, messages: [{ role: "user", content: "The customer needs support: the app crashes" }] });
    expect(named.result.text).toBe("agent2");
    const unnamed = await run({ system, messages: [{ role: "user", content: "Something else entirely" }] });
    expect(unnamed.result.text).toBe("sales");
  });

  it("fills structured output from the schema: defaults, enums, minimums", async () => {
    const schema: JSONSchema7 = {
      type: "object",
      properties: {
        title: { type: "string", default: "Untitled" },
        mood: { enum: ["calm", "angry"] },
        score: { type: "number", minimum: 3, maximum: 9 },
        tags: { type: "array", items: { type: "string" }, minItems: 1 },
      },
      required: ["title", "mood", "score", "tags"],
    };
    const { result } = await run({ messages: [{ role: "user", content: "x" }], output: Output.object({ schema: jsonSchema(schema) }) });
    expect(result.output).toEqual({ title: "Untitled", mood: "calm", score: 3, tags: [""] });
    expect(valueFromSchema({ type: "integer", exclusiveMinimum: 0 })).toBe(1);
  });
});
