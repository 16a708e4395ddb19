import { parse } from "csv-parse/sync";
import type { TextBlock } from "../types";
import { DocumentParseError } from "../errors";

/**
 * A CSV becomes one block per row, each cell labelled with its column header (`Plan: Pro`), so a
 * chunk holding a few rows still says what each value means.
 */
export function parseCsv(text: string): { blocks: TextBlock[]; rows: number; columns: string[] } {
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      relax_quotes: true,
      trim: true,
    });
  } catch (error) {
    throw new DocumentParseError(
      `the CSV could not be read: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const [header, ...rows] = records;
  if (!header) return { blocks: [], rows: 0, columns: [] };
  if (rows.length === 0) return { blocks: [{ kind: "text", text: header.join(", ") }], rows: 0, columns: header };
  const blocks: TextBlock[] = [];
  for (const row of rows) {
    const cells = row
      .map((value, column) => ({ label: header[column] || `column ${column + 1}`, value }))
      .filter((cell) => cell.value !== "")
      .map((cell) => `${cell.label}: ${cell.value}`);
    if (cells.length > 0) blocks.push({ kind: "text", text: cells.join("\n") });
  }
  return { blocks, rows: rows.length, columns: header };
}
