import { CompletionContext } from "@codemirror/autocomplete";
import { EditorState } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { findTrigger } from "./reference-completion";
import { completionChange, referenceCompletionSource } from "./reference-completion-source";

const items = [
  { value: "Start.message", detail: "string" },
  { value: "Sales Agent.content", detail: "string" },
  { value: "Support Agent.content", detail: "string" },
];
const source = referenceCompletionSource(
  () => items,
  () => ["OPENAI_API_KEY"],
);

/** The completion offered with the cursor at `|`. */
function complete(textWithCursor: string) {
  const pos = textWithCursor.indexOf("|");
  const state = EditorState.create({ doc: textWithCursor.replace("|", "") });
  return source(new CompletionContext(state, pos, false));
}

/** The text after picking `value` with the cursor at `|`. */
function pick(textWithCursor: string, value: string): string {
  const cursor = textWithCursor.indexOf("|");
  const text = textWithCursor.replace("|", "");
  const change = completionChange(
    text,
    cursor,
    findTrigger(text, cursor)!,
    items.find((item) => item.value === value)!,
  );
  const after = text.slice(0, change.from) + change.insert + text.slice(change.to);
  return after.slice(0, change.cursor) + "|" + after.slice(change.cursor);
}

describe("referenceCompletionSource", () => {
  it("offers upstream references after `<` on the cursor's line, matched ignoring case and spaces", () => {
    const result = complete("const total = 1;\nconst text = <salesag|");
    expect(result?.options.map((option) => option.label)).toEqual(["<Sales Agent.content>"]);
    expect(result?.from).toBe("const total = 1;\nconst text = ".length);
    expect(result?.filter).toBe(false);
  });

  it("offers environment names after `{{`", () => {
    expect(complete("key: {{OPEN|")?.options.map((option) => option.label)).toEqual(["{{OPENAI_API_KEY}}"]);
  });

  it("stays quiet for a less-than comparison and when nothing matches", () => {
    expect(complete("if (a < |")).toBeNull();
    expect(complete("if (a <b|")).toBeNull();
  });
});

describe("completionChange", () => {
  it("inserts the closed reference in place of what was typed", () => {
    expect(pick("return <Sta|;", "Start.message")).toBe("return <Start.message>|;");
  });

  it("swallows a `>` already typed after the cursor", () => {
    expect(pick("x = <Sta|> + 1", "Start.message")).toBe("x = <Start.message>| + 1");
  });

  it("completes the alternative after `??` and closes the reference", () => {
    expect(pick("<Sales Agent.content ?? Sup|", "Support Agent.content")).toBe(
      "<Sales Agent.content ?? Support Agent.content>|",
    );
  });
});
