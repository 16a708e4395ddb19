import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { blockDefinitions } from "./definitions";
import { blockTable, withBlockTable } from "./docs-table";

const contractFile = path.resolve(__dirname, "..", "docs", "CONTRACT.md");

describe("docs/CONTRACT.md's block table", () => {
  it("is the table the block definitions write (run `npm run docs:blocks` after changing one)", () => {
    const committed = fs.readFileSync(contractFile, "utf8");
    expect(withBlockTable(committed)).toBe(committed);
  });

  it("has a row for every block type, the Web block's too", () => {
    const rows = blockTable().split("\n").slice(2);
    expect(rows).toHaveLength(Object.keys(blockDefinitions).length);
    expect(rows.find((row) => row.startsWith("| web "))).toContain("`url, maxChars?");
  });

  it("names every config field of each block type", () => {
    const unnamed: string[] = [];
    for (const definition of Object.values(blockDefinitions)) {
      const schema = definition.configSchema as z.ZodType;
      expect(schema, definition.type).toBeInstanceOf(z.ZodObject);
      for (const key of Object.keys((schema as z.ZodObject).shape)) {
        if (!new RegExp(`\\b${key}\\b`).test(definition.docs.config)) unnamed.push(`${definition.type}.${key}`);
      }
    }
    expect(unnamed).toEqual([]);
  });

  it("refuses a document without the table's markers, rather than writing the table somewhere", () => {
    expect(() => withBlockTable("# Contract\n\nNo table here.\n")).toThrow(/markers are missing/);
  });
});
