import { describe, expect, it } from "vitest";
import type { UsageRow } from "@/contract";
import { csvField, plainDollars, usageCsv, usageCsvFileName } from "./usage-csv";

function row(overrides: Partial<UsageRow>): UsageRow {
  const cost = { input: 0.25, output: 0.75, total: 1 };
  return {
    key: "k1",
    label: "Key",
    runs: 1,
    testRuns: 0,
    tokens: { prompt: 10, completion: 5, total: 15 },
    cost,
    pricedCost: cost,
    unpriced: false,
    estimated: false,
    ...overrides,
  };
}

/** A minimal RFC 4180 reader, to check what a spreadsheet would read back. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted && char === '"' && text[index + 1] === '"') {
      field += '"';
      index++;
    } else if (quoted && char === '"') {
      quoted = false;
    } else if (quoted || (char !== '"' && char !== "," && !(char === "\r" && text[index + 1] === "\n"))) {
      field += char;
    } else if (char === '"') {
      quoted = true;
    } else {
      record.push(field);
      field = "";
      if (char === "\r") {
        records.push(record);
        record = [];
        index++;
      }
    }
  }
  return records;
}

describe("usage CSV", () => {
  it("quotes fields with commas, quotes and line breaks (RFC 4180) and reads back to the same values", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
    const csv = usageCsv({
      rows: [
        row({ label: 'Checkout, "prod" (trl_ab12…)', key: "k1" }),
        row({ label: "line\r\nbreak", key: null, runs: 3 }),
      ],
    });
    expect(csv.endsWith("\r\n")).toBe(true);
    const records = parseCsv(csv);
    expect(records[0]).toEqual([
      "group",
      "key",
      "runs",
      "prompt_tokens",
      "completion_tokens",
      "total_tokens",
      "cost_usd",
      "priced_cost_usd",
      "unpriced",
      "estimated",
    ]);
    expect(records[1]).toEqual([
      'Checkout, "prod" (trl_ab12…)',
      "k1",
      "1",
      "10",
      "5",
      "15",
      "1",
      "1",
      "false",
      "false",
    ]);
    expect(records[2]!.slice(0, 3)).toEqual(["line\r\nbreak", "", "3"]);
    expect(records).toHaveLength(3);
  });

  it("writes every dollar digit without exponents, leaves cost empty when unpriced, and keeps formula-like names as text", () => {
    expect(plainDollars(0.0000000001)).toBe("0.0000000001");
    expect(plainDollars(1234.5)).toBe("1234.5");
    expect(plainDollars(0)).toBe("0");
    const [, line] = parseCsv(
      usageCsv({
        rows: [
          row({
            label: '=HYPERLINK("http://x")',
            key: "-1",
            cost: null,
            unpriced: true,
            pricedCost: { input: 0, output: 0, total: 0.0000012345 },
          }),
        ],
      }),
    );
    expect(line).toEqual([
      '\'=HYPERLINK("http://x")',
      "'-1",
      "1",
      "10",
      "5",
      "15",
      "",
      "0.0000012345",
      "true",
      "false",
    ]);
  });

  it("names the file after the grouping and the period's first and last days", () => {
    expect(usageCsvFileName({ groupBy: "day", from: "2025-03-01T00:00:00.000Z", to: "2025-04-01T00:00:00.000Z" })).toBe(
      "trellis-usage-day-2025-03-01-to-2025-03-31.csv",
    );
  });
});
