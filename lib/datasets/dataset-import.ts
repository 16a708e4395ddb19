import "server-only";
import { parse } from "csv-parse/sync";
import {
  DATASET_MAX_CASES,
  DATASET_MAX_TAGS,
  DATASET_TAG_MAX_LENGTH,
  findJsonHazard,
  isReservedName,
  type CheckedDatasetCase,
  type IssueDetail,
} from "@/contract";
import { RequestError } from "@/lib/http/errors";
import { cellValue, columnMismatch, describeMismatch, typeProblem, type StartInputColumn } from "./dataset-columns";

/** The import formats POST /api/datasets/:id/cases reads besides JSON. */
export type CaseFileFormat = "csv" | "jsonl";

/** Problems listed in one refusal; the rest are counted. */
const MAX_LISTED = 20;

/**
 * Cases from a CSV (a header row: one column per start input, and `expected`, `note`, `tags`) or
 * from JSON lines (one object a line, keyed the same way). Everything is checked before anything
 * is returned, so a file with one bad cell stores nothing: the refusal names each line and column
 * that is wrong. `inputs` null: the dataset belongs to no workflow, and every other column is an
 * input taken as it is.
 */
export function importCases(
  text: string,
  format: CaseFileFormat,
  inputs: readonly StartInputColumn[] | null,
  /** The file's column names the user mapped to start inputs (or `expected`, `note`, `tags`): `{ q: "question" }`; "" leaves one out. */
  mapping: Readonly<Record<string, string>> = {},
): CheckedDatasetCase[] {
  // A column mapped to nothing ("notes:") is left out.
  const rows = (format === "csv" ? csvRows(text) : jsonLines(text)).map((row) => ({
    line: row.line,
    cells: Object.fromEntries(
      Object.entries(row.cells)
        .map(([name, value]) => [mapping[name] ?? name, value] as const)
        .filter(([name]) => name !== ""),
    ),
  }));
  if (rows.length > DATASET_MAX_CASES) throw tooManyCases(rows.length);
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row.cells)))];
  if (inputs) {
    const mismatch = columnMismatch(
      columns.filter((column) => !isCaseColumn(column)),
      inputs,
    );
    const sentence = describeMismatch(mismatch, inputs);
    if (sentence) {
      throw new RequestError("invalid_request", `The dataset's columns do not match the workflow: ${sentence}`, [
        ...mismatch.unknown.map((column) => ({ path: column, message: "is not a start input" })),
        ...mismatch.missing.map((column) => ({ path: column, message: "is a required start input and is missing" })),
      ]);
    }
  }
  const problems: IssueDetail[] = [];
  const cases: CheckedDatasetCase[] = [];
  for (const row of rows) {
    const place = (column: string) => `line ${row.line}, column ${column}`;
    const fail = (column: string, message: string) => problems.push({ path: place(column), message });
    const input: Record<string, unknown> = {};
    let expected: unknown;
    let note = "";
    let tags: string[] = [];
    for (const [column, raw] of Object.entries(row.cells)) {
      if (column === "expected") {
        expected = raw === "" ? undefined : raw;
      } else if (column === "note") {
        if (typeof raw !== "string") fail(column, "must be text");
        else note = raw;
      } else if (column === "tags") {
        const parsed = tagsOf(raw);
        if (typeof parsed === "string") fail(column, parsed);
        else tags = parsed;
      } else {
        const declared = inputs?.find((candidate) => candidate.name === column);
        if (isReservedName(column)) {
          fail(column, "is a reserved name");
          continue;
        }
        if (!declared) {
          input[column] = raw;
          continue;
        }
        if (format === "csv" && typeof raw === "string") {
          // An empty cell leaves an input with a default to its default.
          if (raw === "" && !declared.required) continue;
          try {
            input[column] = cellValue(raw, declared.type);
          } catch (error) {
            fail(column, error instanceof Error ? error.message : String(error));
          }
        } else {
          const problem = typeProblem(raw, declared.type);
          if (problem) fail(column, problem);
          else input[column] = raw;
        }
      }
    }
    for (const declared of inputs ?? [])
      if (
        declared.required &&
        !(declared.name in input) &&
        !problems.some((problem) => problem.path === place(declared.name))
      )
        fail(declared.name, "is required (the input has no default)");
    cases.push({ input, ...(expected === undefined ? {} : { expected }), note, tags });
  }
  if (problems.length > 0) {
    const more = problems.length > MAX_LISTED ? ` (and ${problems.length - MAX_LISTED} more)` : "";
    const first = problems[0]!;
    throw new RequestError(
      "invalid_request",
      `Nothing was imported: ${first.path}: ${first.message}${problems.length > 1 ? `; ${problems.length - 1} other problem${problems.length > 2 ? "s" : ""} listed in details` : ""}${more}.`,
      problems.slice(0, MAX_LISTED),
    );
  }
  return cases;
}

export function tooManyCases(count: number): RequestError {
  return new RequestError(
    "too_large",
    `A dataset holds at most ${DATASET_MAX_CASES.toLocaleString("en-US")} cases; this would make ${count.toLocaleString("en-US")}.`,
    [{ path: "cases", message: `at most ${DATASET_MAX_CASES} cases` }],
  );
}

function isCaseColumn(column: string): boolean {
  return column === "expected" || column === "note" || column === "tags";
}

interface ImportRow {
  /** The line of the file it ends on, from 1 (the header is line 1 of a CSV). */
  line: number;
  cells: Record<string, unknown>;
}

function csvRows(text: string): ImportRow[] {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // With `info`, each record comes with the line it ends on (csv-parse's types do not follow the option).
    records = parse(text, { bom: true, skip_empty_lines: true, info: true }) as unknown as typeof records;
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new RequestError(
      "invalid_request",
      `Nothing was imported: the CSV could not be read${line ? ` at line ${line}` : ""}: ${error instanceof Error ? error.message : String(error)}`,
      [{ path: line ? `line ${line}` : "", message: "is not valid CSV" }],
    );
  }
  const [header, ...rows] = records;
  if (!header) throw new RequestError("invalid_request", "The CSV is empty: its first line must name the columns.");
  const names = header.record.map((name) => name.trim());
  const blank = names.findIndex((name) => name === "");
  if (blank >= 0)
    throw new RequestError("invalid_request", `The CSV's header names no column ${blank + 1}.`, [
      { path: `line ${header.info.lines}, column ${blank + 1}`, message: "has no name" },
    ]);
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice !== undefined)
    throw new RequestError("invalid_request", `The CSV's header names the column "${twice}" twice.`, [
      { path: `line ${header.info.lines}, column ${twice}`, message: "is named twice" },
    ]);
  return rows.map(({ record, info }) => ({
    line: info.lines,
    cells: Object.fromEntries(names.map((name, index) => [name, record[index] ?? ""])),
  }));
}

function jsonLines(text: string): ImportRow[] {
  const rows: ImportRow[] = [];
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const number = index + 1;
    const refuse = (message: string) =>
      new RequestError("invalid_request", `Nothing was imported: line ${number} ${message}.`, [
        { path: `line ${number}`, message },
      ]);
    const hazard = findJsonHazard(line, { refusePrototypeKeys: true });
    if (hazard) throw refuse("nests too deep or uses a reserved key");
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw refuse("is not valid JSON");
    }
    if (value === null || typeof value !== "object" || Array.isArray(value))
      throw refuse("is not a JSON object (one case a line: a key per start input, and `expected`, `note`, `tags`)");
    rows.push({ line: number, cells: value as Record<string, unknown> });
  });
  return rows;
}

/** Tags as a list, or `a;b` / `a,b` text; a message when they are not. */
function tagsOf(raw: unknown): string[] | string {
  const list =
    typeof raw === "string"
      ? raw
          .split(/[;,]/)
          .map((tag) => tag.trim())
          .filter(Boolean)
      : raw;
  if (!Array.isArray(list) || list.some((tag) => typeof tag !== "string")) return "must be a list of tags";
  if (list.length > DATASET_MAX_TAGS) return `must be at most ${DATASET_MAX_TAGS} tags`;
  if (list.some((tag: string) => tag.length > DATASET_TAG_MAX_LENGTH))
    return `a tag must be at most ${DATASET_TAG_MAX_LENGTH} characters`;
  return list as string[];
}
