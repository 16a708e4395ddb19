import { describe, expect, it } from "vitest";
import { headerLines, parseHeaderLines, parseSampleText, sampleText } from "./sample-text";
import { toolNamesOf } from "./tool-samples-editor";

describe("sample text in the inspector", () => {
  it("reads JSON as JSON and anything else as text, and shows each so it reads back the same", () => {
    expect(parseSampleText('{"orderId": 7}')).toEqual({ orderId: 7 });
    expect(parseSampleText("queued")).toBe("queued");
    expect(parseSampleText("  ")).toBeUndefined();
    for (const value of [{ orderId: 7 }, [1, 2], "queued", "42", "true", 42, null])
      expect(parseSampleText(sampleText(value))).toEqual(value);
  });

  it("reads headers one a line and names a line without a colon", () => {
    expect(parseHeaderLines("X-Order: 7\n\ncontent-type: text/plain")).toEqual({
      headers: { "X-Order": "7", "content-type": "text/plain" },
      problem: null,
    });
    expect(parseHeaderLines("X-Order: 7\nbroken").problem).toBe('Line 2 needs "name: value".');
    expect(parseHeaderLines(headerLines({ a: "1", b: "x: y" })).headers).toEqual({ a: "1", b: "x: y" });
  });

  it("suggests the tool names an agent's entries give the model", () => {
    expect(
      toolNamesOf([
        "http_request",
        { type: "http_request", name: "post_order" },
        { type: "mcp", params: { server: "files", tools: ["write_note", "read_note"] } },
        { type: "mcp", params: { server: "all" } },
        42,
      ]),
    ).toEqual(["http_request", "post_order", "write_note", "read_note"]);
    expect(toolNamesOf(undefined)).toEqual([]);
  });
});
