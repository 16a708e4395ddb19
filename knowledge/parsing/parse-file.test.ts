import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "@/contract";
import { parseFile } from "./parse-file";

const text = (value: string) => new TextEncoder().encode(value);
const corpus = (name: string) =>
  new Uint8Array(readFileSync(fileURLToPath(new URL(`../__fixtures__/corpus/${name}`, import.meta.url))));

describe("parseFile", () => {
  it("reads Markdown headings, lists, tables and code as separate blocks without inline markup", async () => {
    const parsed = await parseFile(
      "md",
      text(
        "---\ntitle: x\n---\n# Title\n\nSome **bold** and [a link](http://x).\n\nSetext\n------\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nconst a = 1;\n```\n",
      ),
    );
    expect(parsed.blocks).toEqual([
      { kind: "heading", level: 1, text: "Title" },
      { kind: "text", text: "Some bold and a link." },
      { kind: "heading", level: 2, text: "Setext" },
      { kind: "text", text: "- one\n- two" },
      { kind: "text", text: "| a | b |\n| 1 | 2 |" },
      { kind: "text", text: "const a = 1;" },
    ]);
  });

  it("reads HTML text with headings, skipping scripts and styles, and keeps the title", async () => {
    const parsed = await parseFile("html", corpus("vacation-policy.html"));
    expect(parsed.metadata).toEqual({ title: "Vacation policy" });
    expect(parsed.blocks[0]).toEqual({ kind: "heading", level: 1, text: "Vacation policy" });
    expect(parsed.blocks.map((block) => block.text).join(" ")).toContain("25 days of paid vacation");
    expect(JSON.stringify(parsed.blocks)).not.toMatch(/console\.log|font-family/);
  });

  it("decodes HTML entities", async () => {
    const parsed = await parseFile("html", text("<p>Fish &amp; chips &lt;3</p>"));
    expect(parsed.blocks).toEqual([{ kind: "text", text: "Fish & chips <3" }]);
  });

  it("labels every CSV cell with its column", async () => {
    const parsed = await parseFile("csv", corpus("pricing-plans.csv"));
    expect(parsed.metadata).toMatchObject({ rows: 4, columns: ["Plan", "Monthly price", "Seats", "Storage"] });
    expect(parsed.blocks[1]?.text).toBe("Plan: Pro\nMonthly price: $12\nSeats: 5\nStorage: 100 GB");
  });

  it("gives one block per JSON record", async () => {
    const parsed = await parseFile("json", corpus("billing-faq.json"));
    expect(parsed.blocks).toHaveLength(2);
    expect(parsed.blocks[1]?.text).toMatch(/^question: Which payment methods do you accept\?\nanswer: We accept Visa/);
  });

  it("names what is wrong with invalid JSON", async () => {
    await expect(parseFile("json", text("{ nope"))).rejects.toThrow(/JSON is not valid/);
  });

  it("fails a JSON file nested past the limit with a message naming it, not a stack overflow", async () => {
    const deep = `{"faq":${"[".repeat(20_000)}${"]".repeat(20_000)}}`;
    await expect(parseFile("json", text(deep))).rejects.toMatchObject({
      code: "document_unreadable",
      message: `the JSON is nested deeper than the limit of ${MAX_JSON_DEPTH} levels (at faq[0][0][0][0][0]…[0][0])`,
    });
  });

  it("extracts PDF text page by page", async () => {
    const parsed = await parseFile("pdf", corpus("company-holidays.pdf"));
    expect(parsed.metadata).toEqual({ pages: 2 });
    expect(parsed.blocks.map((block) => block.page)).toEqual([1, 2]);
    expect(parsed.blocks[1]?.text).toContain("Reunification Day");
  });

  it("refuses a broken PDF with a reason", async () => {
    await expect(parseFile("pdf", text("%PDF-1.4 garbage"))).rejects.toThrow(/PDF could not be read/);
  });

  it("splits plain text at blank lines", async () => {
    const parsed = await parseFile("txt", text("\uFEFFone\r\ntwo\r\n\r\nthree"));
    expect(parsed.blocks).toEqual([
      { kind: "text", text: "one\ntwo" },
      { kind: "text", text: "three" },
    ]);
  });
});
