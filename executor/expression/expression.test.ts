import { describe, expect, it } from "vitest";
import { evaluateCondition, evaluateExpression, ExpressionError, parseExpression } from "./index";

describe("expression language", () => {
  it.each([
    ["1 + 2 * 3", 7],
    ["(1 + 2) * 3", 9],
    ["10 % 4 - -1", 3],
    ["'a' + 1", "a1"],
    ["[1, 2] + [3]", [1, 2, 3]],
    ["'3' == 3", true],
    ["'3' === 3", false],
    ["{a: [1, {b: 2}]} == {a: [1, {b: 2}]}", true],
    ["null == undefined", true],
    ["2 > 1 && 'b' > 'a'", true],
    ["0 || 'fallback'", "fallback"],
    ["!''", true],
    ["![]", true],
    ["1 < 2 ? 'yes' : 'no'", "yes"],
    ["{items: [10, 20]}.items[-1]", 20],
    ["'hello'.length", 5],
    ["contains('Refund please', 'fund') && startsWith('abc', 'ab') && endsWith('abc', 'bc')", true],
    ["contains([1, {x: 1}], {x: 1})", true],
    ["length([1, 2, 3]) + len('ab') + length({a: 1})", 6],
    ["lower('ABC') + upper('d') + trim('  e ')", "abcDe"],
    ["join(split('a,b', ','), '-')", "a-b"],
    ["number('4.5') * 2", 9],
    ["max(1, 7, 3) - min([4, 2])", 5],
    ["isEmpty('') && !isEmpty([0])", true],
    ['"tab\\tquote\\"" == \'tab\tquote"\'', true],
  ])("%s", (source, expected) => {
    expect(evaluateExpression(source)).toEqual(expected);
  });

  it("looks up bare names in the given scope only", () => {
    expect(evaluateExpression("index * 2", { index: 4 })).toBe(8);
    expect(() => evaluateExpression("index")).toThrow("Unknown name 'index'");
    expect(() => evaluateExpression("constructor")).toThrow(ExpressionError);
    expect(evaluateExpression("{}.constructor")).toBeNull();
  });

  it("reports parse errors with their position", () => {
    const cases: Array<[string, string]> = [
      ["1 +", "The expression ends too early at position 4"],
      ["(1 + 2", "Expected ')' but found the end of the expression at position 7"],
      ["1 2", "Unexpected '2' at position 3"],
      ["'open", "Unterminated string (missing closing quote) at position 1"],
      ["a # b", "Unexpected character '#' at position 3"],
      ["", "The expression is empty"],
    ];
    for (const [source, message] of cases) expect(() => parseExpression(source), source).toThrow(message);
  });

  it("refuses bad operations with clear messages instead of JavaScript coercions", () => {
    expect(() => evaluateExpression("1 / 0")).toThrow("Division by zero");
    expect(() => evaluateExpression("{a: 1} < 2")).toThrow("Cannot compare object with number");
    expect(() => evaluateExpression("'x' * 2")).toThrow("'*' needs a number, got string");
    expect(() => evaluateExpression("eval('1')")).toThrow("Unknown function 'eval'");
    expect(() => evaluateExpression("null.x")).toThrow("Cannot read 'x' of null");
  });

  it("limits nesting instead of overflowing the stack", () => {
    expect(() => parseExpression("(".repeat(500) + "1" + ")".repeat(500))).toThrow("nested deeper than 64 levels");
    expect(() => parseExpression("!".repeat(500) + "1")).toThrow("nested deeper than 64 levels");
  });

  it("short-circuits, so an unresolved stand-in is only an error when reached", () => {
    expect(evaluateCondition("true || unresolved('never read')")).toBe(true);
    expect(() => evaluateCondition("false || unresolved('<a.b>: gone')")).toThrow("<a.b>: gone");
  });
});
