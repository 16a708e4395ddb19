import { describe, expect, it } from "vitest";
import { fileColumns, mappingQuery } from "./import-columns";

describe("a picked file's columns", () => {
  it("reads a CSV header with quoted names, and the keys of JSON lines", () => {
    expect(fileColumns({ contentType: "text/csv", text: '\uFEFFq,"the, answer","say ""hi"""\r\n1,2,3\n' })).toEqual([
      "q",
      "the, answer",
      'say "hi"',
    ]);
    expect(
      fileColumns({ contentType: "application/x-ndjson", text: '{"q":1}\n{oops\n{"q":2,"expected":"x"}\n' }),
    ).toEqual(["q", "expected"]);
  });

  it("writes a mapping as the map query, an empty target leaving a column out", () => {
    expect(mappingQuery({ q: "question", id: "" })).toBe("q:question,id:");
  });
});
