import { describe, expect, it } from "vitest";
import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";
import { jsonSchema, Output, type JSONSchema7 } from "ai";
import { runModel } from "../model-call";
import {
  chunksOf,
  createOfflineModel,
  DEFAULT_OFFLINE_WORD_DELAY_MS,
  OFFLINE_STREAM_LIMIT_MS,
  offlinePaceFrom,
  wordDelayFor,
} from "./offline-model";
import { OFFLINE_ECHO_LIMIT_CHARS, offlineAnswer } from "./offline-responder";
import { createModelRegistry } from "../model-registry";
import { createInMemoryHandlerContext } from "../testing/in-memory-handler-context";
import { valueFromSchema } from "./json-from-schema";
import type { OfflinePace } from "./offline-model";
import { watchLoop } from "../testing/loop-watch";

// An independent encoder, so the test checks the counts rather than reusing the code under test.
const encoder = new Tiktoken(o200kBase);
const tokens = (text: string) => encoder.encode(text).length;

function run(
  options: Partial<Parameters<typeof runModel>[0]> & Pick<Parameters<typeof runModel>[0], "messages">,
  pace: OfflinePace = { wordDelayMs: 0 },
) {
  // No env at all: the offline model needs no key, no base URL and no network.
  const model = createModelRegistry({ env: () => undefined, offlinePace: pace }).resolve("offline/echo");
  const context = createInMemoryHandlerContext();
  return runModel({
    model,
    hooks: { signal: context.signal, startSpan: context.startSpan, onTextDelta: context.emitDelta },
    ...options,
  }).then((result) => ({
    result,
    context,
  }));
}

describe("offline/echo", () => {
  it("echoes the last user message in chunks, says it is not a language model, with exact o200k_base counts and cost 0", async () => {
    const { result, context } = await run({
      system: "Be brief.",
      messages: [{ role: "user", content: "What is Trellis?" }],
    });
    const answer = "Echo: What is Trellis?\n\n[offline model, not a language model]";
    expect(result.text).toBe(answer);
    expect(context.deltas.length).toBeGreaterThan(1);
    expect(context.deltas.join("")).toBe(result.text);
    expect(result.usage.tokens).toEqual({
      prompt: tokens("Be brief.\nWhat is Trellis?"),
      completion: tokens(answer),
      total: tokens("Be brief.\nWhat is Trellis?") + tokens(answer),
    });
    expect(result.usage.cost).toEqual({ input: 0, output: 0, total: 0 });
    expect(result.usage.estimated).toBeUndefined();
  });

  it("streams word by word at its pace: each word after the first arrives one wait after the one before", async () => {
    // A virtual clock: each wait moves it on, so the test is instant and exact.
    let now = 0;
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
      now += ms;
    };
    const model = createOfflineModel("echo", { wordDelayMs: 45, sleep });
    const { stream } = await model.doStream({
      prompt: [{ role: "user", content: [{ type: "text", text: "one two three" }] }],
    });
    const arrivals: Array<[string, number]> = [];
    const reader = stream.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read())
      if (part.value.type === "text-delta") arrivals.push([part.value.delta, now]);
    const words = chunksOf(
      offlineAnswer({ prompt: [{ role: "user", content: [{ type: "text", text: "one two three" }] }] }),
    );
    expect(arrivals).toEqual(words.map((word, index) => [word, index * 45]));
    expect(waits).toHaveLength(words.length - 1);
  });

  it("streams a long answer faster, so it ends within the stream limit instead of holding the run", async () => {
    let waited = 0;
    const sleep = async (ms: number) => {
      waited += ms;
    };
    const longPrompt = Array.from({ length: 600 }, (_, index) => `word${index}`).join(" ");
    const model = createOfflineModel("echo", { wordDelayMs: DEFAULT_OFFLINE_WORD_DELAY_MS, sleep });
    const { stream } = await model.doStream({
      prompt: [{ role: "user", content: [{ type: "text", text: longPrompt }] }],
    });
    let deltas = 0;
    const reader = stream.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read())
      if (part.value.type === "text-delta") deltas += 1;
    expect(deltas).toBeGreaterThan(600);
    expect(waited).toBeGreaterThan(0);
    expect(waited).toBeLessThanOrEqual(OFFLINE_STREAM_LIMIT_MS);
    expect(wordDelayFor(12, DEFAULT_OFFLINE_WORD_DELAY_MS)).toBe(DEFAULT_OFFLINE_WORD_DELAY_MS);
  });

  it("takes real time at the default pace, so the editor sees the words arrive", async () => {
    const started = performance.now();
    const { context } = await run(
      { messages: [{ role: "user", content: "a visible stream of words" }] },
      { wordDelayMs: DEFAULT_OFFLINE_WORD_DELAY_MS },
    );
    // "Echo:", five words and the note's six: eleven waits of 40 ms.
    expect(context.deltas.length).toBe(12);
    expect(performance.now() - started).toBeGreaterThanOrEqual(11 * DEFAULT_OFFLINE_WORD_DELAY_MS - 5);
  });

  it("stops streaming when the call is cancelled mid-answer", async () => {
    const controller = new AbortController();
    const model = createModelRegistry({ env: () => undefined, offlinePace: { wordDelayMs: 1000 } }).resolve(
      "offline/echo",
    );
    const started = performance.now();
    const call = runModel({
      model,
      messages: [{ role: "user", content: "a long answer" }],
      hooks: { signal: controller.signal, startSpan: createInMemoryHandlerContext().startSpan },
    });
    setTimeout(() => controller.abort(new Error("cancelled")), 50);
    await expect(call).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(900);
  });

  it("reads a pace from its setting and refuses a bad one by name", () => {
    expect(offlinePaceFrom(undefined)).toBeUndefined();
    expect(offlinePaceFrom("0")).toEqual({ wordDelayMs: 0 });
    expect(() => offlinePaceFrom("fast")).toThrow(/TRELLIS_OFFLINE_WORD_DELAY_MS must be a whole number/);
  });

  it("routes by keyword overlap with each candidate's title, description and system prompt", async () => {
    const system = [
      "Available Target Blocks:",
      "ID: sales\nType: agent\nTitle: Sales Agent\nDescription: Prices, plans and upgrades",
      "---",
      'ID: agent2\nType: agent\nTitle: Support Agent\nSystem Prompt: "Help with broken orders, refunds and accounts."',
      "---",
    ].join("\n");
    const answer = async (content: string) =>
      (await run({ system, messages: [{ role: "user", content }] })).result.text;
    expect(await answer("My order arrived broken and I would like a refund")).toBe("agent2");
    expect(await answer("Can I upgrade my plan?")).toBe("sales");
    expect(await answer("Something else entirely")).toBe("sales");
    // A title word weighs more than a description word: "support" beats "prices".
    expect(await answer("support question about prices")).toBe("agent2");
  });

  it("scores a bounded-numbers schema per metric from the content, within each range", async () => {
    const schema: JSONSchema7 = {
      type: "object",
      properties: {
        clarity: { type: "number", minimum: 0, maximum: 10, description: "Is it clear and well structured?" },
        politeness: { type: "integer", minimum: 1, maximum: 5, description: "Is the tone polite?" },
      },
      required: ["clarity", "politeness"],
    };
    const score = async (content: string) =>
      (
        await run({
          messages: [{ role: "user", content: `Content to evaluate:\n\n${content}` }],
          output: Output.object({ schema: jsonSchema(schema) }),
        })
      ).result.output as Record<string, number>;
    const polite = await score(
      "Thank you for writing. We are sorry about the delay, and we are glad to help you today.",
    );
    const curt = await score("no");
    expect(polite.politeness).toBeGreaterThanOrEqual(4);
    expect(curt.politeness).toBe(1);
    expect(polite.clarity).toBeGreaterThan(curt.clarity!);
    expect(Number.isInteger(polite.politeness)).toBe(true);
    for (const value of [polite.clarity, curt.clarity]) expect(value).toBeGreaterThanOrEqual(0);
    expect(
      await score("Thank you for writing. We are sorry about the delay, and we are glad to help you today."),
    ).toEqual(polite);
  });

  it("says what its scores are when an evaluator asks for reasons beside them", async () => {
    const schema: JSONSchema7 = {
      type: "object",
      properties: {
        reasoning: { type: "string" },
        clarity: { type: "number", minimum: 0, maximum: 10, description: "Is it clear?" },
      },
      required: ["reasoning", "clarity"],
    };
    const { result } = await run({
      messages: [{ role: "user", content: "Content to evaluate:\n\nThank you. Your refund is on its way." }],
      output: Output.object({ schema: jsonSchema(schema) }),
    });
    const output = result.output as { reasoning: string; clarity: number };
    expect(output.reasoning).toMatch(/^Offline scores from text features/);
    expect(output.clarity).toBeGreaterThan(0);
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
    const { result } = await run({
      messages: [{ role: "user", content: "x" }],
      output: Output.object({ schema: jsonSchema(schema) }),
    });
    expect(result.output).toEqual({ title: "Untitled", mood: "calm", score: 3, tags: [""] });
    expect(valueFromSchema({ type: "integer", exclusiveMinimum: 0 })).toBe(1);
  });
});

describe("offline/echo with a huge message", () => {
  it("echoes at most OFFLINE_ECHO_LIMIT_CHARS, says how much it left out, and flags counts past a megabyte as estimated", async () => {
    const word = "x".repeat(2 * 1024 * 1024);
    const watch = watchLoop();
    const { result } = await run({ messages: [{ role: "user", content: word }] });
    const { longestHoldMs } = watch.stop();
    expect(result.text.length).toBeLessThan(OFFLINE_ECHO_LIMIT_CHARS + 200);
    expect(result.text).toContain(
      `[…${(word.length - OFFLINE_ECHO_LIMIT_CHARS).toLocaleString("en-US")} more characters not echoed]`,
    );
    expect(result.usage.estimated).toBe(true);
    // Nothing held the event loop for long (counting 2 MiB at once took minutes before, and a long word 14 s for 16,000 letters).
    expect(longestHoldMs).toBeLessThan(500);
  });
});
