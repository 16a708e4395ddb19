import { describe, expect, it } from "vitest";
import { describeJsonProblem, jsonProblemToShow, jsonSyntaxProblem } from "./json-problem";

describe("jsonSyntaxProblem", () => {
  it("finds nothing wrong in JSON or in an empty box", () => {
    expect(jsonSyntaxProblem('{ "a": [1, 2, { "b": null }] }')).toBeNull();
    expect(jsonSyntaxProblem("  \n ")).toBeNull();
  });

  it("names the line and column of a missing comma and what was expected", () => {
    const text = '{\n  "a": 1\n  "b": 2\n}';
    const problem = jsonSyntaxProblem(text)!;
    expect(problem.line).toBe(3);
    expect(problem.column).toBe(3);
    expect(text.slice(problem.from, problem.to)).toBe('"');
    expect(describeJsonProblem(problem)).toBe("Line 3, column 3: Expected ',' or '}' after property value");
  });

  it("points a trailing comma at what follows it", () => {
    const problem = jsonSyntaxProblem('{"a": 1,}')!;
    expect([problem.line, problem.column]).toEqual([1, 9]);
    expect(problem.reason).toBe("Expected double-quoted property name");
  });

  it("puts an unfinished value at the end of the text", () => {
    const text = "[1, 2,\n 3";
    const problem = jsonSyntaxProblem(text)!;
    expect(problem.from).toBe(text.length);
    expect(problem.line).toBe(2);
  });

  it("reads Firefox's line and column and drops the quoted input from V8's token message", () => {
    // The messages other engines give; the position comes from the message, else from the parse tree.
    const firefox = new SyntaxError(
      "JSON.parse: expected ',' or '}' after property value in object at line 2 column 3 of the JSON data",
    );
    const v8Token = new SyntaxError(`Unexpected token 'x', "{"a": x}" is not valid JSON`);
    const parse = JSON.parse;
    try {
      JSON.parse = () => {
        throw firefox;
      };
      expect(describeJsonProblem(jsonSyntaxProblem('{"a": 1\n  "b": 2}')!)).toBe(
        "Line 2, column 3: Expected ',' or '}' after property value in object",
      );
      JSON.parse = () => {
        throw v8Token;
      };
      const problem = jsonSyntaxProblem('{"a": x}')!;
      expect(problem.reason).toBe("Unexpected token 'x'");
      expect(problem.column).toBe(7);
    } finally {
      JSON.parse = parse;
    }
  });
});

describe("jsonProblemToShow", () => {
  it("holds text to JSON where text is allowed only when it starts like an object or array", () => {
    expect(jsonProblemToShow("<Agent.content>", true)).toBeNull();
    expect(jsonProblemToShow("hello <Start.message>", true)).toBeNull();
    expect(jsonProblemToShow('  {"said": <Agent.content>}', true)?.reason).toMatch(/Unexpected token|Unexpected/);
    expect(jsonProblemToShow("hello", false)?.line).toBe(1);
  });
});
