/**
 * Evaluates an arithmetic expression: numbers, + - * / % ^, parentheses, unary minus. A tiny
 * recursive-descent parser, so no code is ever run (no eval, no Function).
 */
export class ArithmeticError extends Error {}

export function evaluateArithmetic(expression: string): number {
  const tokens = expression.match(/\d+(?:\.\d+)?(?:e[+-]?\d+)?|\.\d+|[-+*/%^()]|\S/gi) ?? [];
  let position = 0;
  const peek = () => tokens[position];
  const take = () => tokens[position++];

  function primary(): number {
    const token = take();
    if (token === undefined) throw new ArithmeticError("the expression ends too early");
    if (token === "(") {
      const value = sum();
      if (take() !== ")") throw new ArithmeticError("a ( is not closed");
      return value;
    }
    if (token === "-") return -power();
    if (token === "+") return power();
    const value = Number(token);
    if (Number.isNaN(value)) throw new ArithmeticError(`unexpected "${token}"`);
    return value;
  }
  function power(): number {
    const base = primary();
    if (peek() === "^") {
      take();
      return base ** power();
    }
    return base;
  }
  function product(): number {
    let value = power();
    while (peek() === "*" || peek() === "/" || peek() === "%") {
      const operator = take();
      const right = power();
      value = operator === "*" ? value * right : operator === "/" ? value / right : value % right;
    }
    return value;
  }
  function sum(): number {
    let value = product();
    while (peek() === "+" || peek() === "-") value = take() === "+" ? value + product() : value - product();
    return value;
  }

  const result = sum();
  if (position < tokens.length) throw new ArithmeticError(`unexpected "${tokens[position]}"`);
  if (!Number.isFinite(result)) throw new ArithmeticError("the result is not a finite number");
  return result;
}
