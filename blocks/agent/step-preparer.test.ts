import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { estimateTokens, prunedNote, pruneToolResults, stepPreparer } from "./step-preparer";

const result = (id: string, text: string): ModelMessage => ({
  role: "tool",
  content: [{ type: "tool-result", toolCallId: id, toolName: "lookup", output: { type: "json", value: { text } } }],
});
const conversation: ModelMessage[] = [
  { role: "user", content: "Read the notes" },
  { role: "assistant", content: [{ type: "tool-call", toolCallId: "a", toolName: "lookup", input: { key: "a" } }] },
  result("a", "alpha ".repeat(200)),
  { role: "assistant", content: [{ type: "tool-call", toolCallId: "b", toolName: "lookup", input: { key: "b" } }] },
  result("b", "beta ".repeat(200)),
];
const outputs = (messages: ModelMessage[]) =>
  messages.flatMap((message) =>
    message.role === "tool" ? message.content.map((part) => (part.type === "tool-result" ? part.output : null)) : [],
  );

describe("pruning tool results", () => {
  it("leaves the conversation as it is under the limit", () => {
    expect(pruneToolResults(conversation, { afterTokens: estimateTokens(conversation), keepLast: 0 })).toBe(
      conversation,
    );
  });

  it("past the limit replaces all but the last keepLast results, and nothing else", () => {
    const pruned = pruneToolResults(conversation, { afterTokens: 50, keepLast: 1 });
    expect(outputs(pruned)).toEqual([
      { type: "text", value: prunedNote("lookup") },
      { type: "json", value: { text: "beta ".repeat(200) } },
    ]);
    expect(pruned.filter((message) => message.role !== "tool")).toEqual(
      conversation.filter((message) => message.role !== "tool"),
    );
    expect(outputs(pruneToolResults(conversation, { afterTokens: 50, keepLast: 0 }))).toEqual([
      { type: "text", value: prunedNote("lookup") },
      { type: "text", value: prunedNote("lookup") },
    ]);
  });

  it("gives back the same conversation when what it would prune is pruned already", () => {
    const once = pruneToolResults(conversation, { afterTokens: 50, keepLast: 1 });
    expect(pruneToolResults(once, { afterTokens: 50, keepLast: 1 })).toBe(once);
  });
});

describe("the step preparer", () => {
  it("is absent when the agent has no rules and no pruning", () => {
    expect(stepPreparer(undefined, undefined)).toBeUndefined();
    expect(stepPreparer([], undefined)).toBeUndefined();
  });
});
