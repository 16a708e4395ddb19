import type { ExpressionNode } from "./ast";
import { ExpressionError } from "./errors";
import { tokenize, type Token } from "./tokenizer";

/** Deeper nesting than this is refused rather than risking the host's stack. */
const MAX_DEPTH = 64;
export const MAX_EXPRESSION_LENGTH = 20_000;

const BINARY_LEVELS: ReadonlyArray<ReadonlyArray<string>> = [
  ["==", "!=", "===", "!=="],
  ["<", "<=", ">", ">="],
  ["+", "-"],
  ["*", "/", "%"],
];

/** A recursive-descent parser; precedence from low to high: ?:, ||, &&, equality, comparison, + -, * / %, unary, member/call. */
class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): ExpressionNode {
    if (this.peek().kind === "end") throw new ExpressionError("The expression is empty");
    const node = this.conditional();
    const next = this.peek();
    if (next.kind !== "end") throw new ExpressionError(`Unexpected '${next.text}'`, next.position);
    return node;
  }

  private peek(): Token {
    return this.tokens[this.index]!;
  }

  private take(): Token {
    const token = this.tokens[this.index]!;
    if (token.kind !== "end") this.index += 1;
    return token;
  }

  private isOperator(text: string): boolean {
    const token = this.peek();
    return token.kind === "operator" && token.text === text;
  }

  private expect(text: string): Token {
    const token = this.peek();
    if (token.kind !== "operator" || token.text !== text) {
      const found = token.kind === "end" ? "the end of the expression" : `'${token.text}'`;
      throw new ExpressionError(`Expected '${text}' but found ${found}`, token.position);
    }
    return this.take();
  }

  private nested<T>(parse: () => T): T {
    this.depth += 1;
    if (this.depth > MAX_DEPTH)
      throw new ExpressionError(`The expression is nested deeper than ${MAX_DEPTH} levels`, this.peek().position);
    try {
      return parse();
    } finally {
      this.depth -= 1;
    }
  }

  private conditional(): ExpressionNode {
    return this.nested(() => {
      const test = this.logical("||");
      if (!this.isOperator("?")) return test;
      const position = this.take().position;
      const consequent = this.conditional();
      this.expect(":");
      const alternate = this.conditional();
      return { type: "conditional", test, consequent, alternate, position };
    });
  }

  private logical(operator: "||" | "&&"): ExpressionNode {
    const operand = () => (operator === "||" ? this.logical("&&") : this.binary(0));
    let left = operand();
    while (this.isOperator(operator)) {
      const position = this.take().position;
      left = { type: "logical", operator, left, right: operand(), position };
    }
    return left;
  }

  private binary(level: number): ExpressionNode {
    const operators = BINARY_LEVELS[level];
    if (!operators) return this.unary();
    let left = this.binary(level + 1);
    for (;;) {
      const token = this.peek();
      if (token.kind !== "operator" || !operators.includes(token.text)) return left;
      this.take();
      left = { type: "binary", operator: token.text, left, right: this.binary(level + 1), position: token.position };
    }
  }

  private unary(): ExpressionNode {
    const token = this.peek();
    if (token.kind === "operator" && (token.text === "!" || token.text === "-" || token.text === "+")) {
      this.take();
      return this.nested(() => ({
        type: "unary",
        operator: token.text as "!" | "-" | "+",
        operand: this.unary(),
        position: token.position,
      }));
    }
    return this.postfix();
  }

  private postfix(): ExpressionNode {
    let node = this.primary();
    for (;;) {
      if (this.isOperator(".")) {
        this.take();
        const name = this.take();
        if (name.kind !== "identifier") throw new ExpressionError("Expected a field name after '.'", name.position);
        node = {
          type: "member",
          object: node,
          property: { type: "literal", value: name.text, position: name.position },
          position: name.position,
        };
      } else if (this.isOperator("[")) {
        const position = this.take().position;
        const property = this.conditional();
        this.expect("]");
        node = { type: "member", object: node, property, position };
      } else {
        return node;
      }
    }
  }

  private list(close: string): ExpressionNode[] {
    const items: ExpressionNode[] = [];
    if (this.isOperator(close)) {
      this.take();
      return items;
    }
    for (;;) {
      items.push(this.conditional());
      if (this.isOperator(",")) {
        this.take();
        continue;
      }
      this.expect(close);
      return items;
    }
  }

  private objectLiteral(position: number): ExpressionNode {
    const entries: Array<{ key: string; value: ExpressionNode }> = [];
    if (this.isOperator("}")) {
      this.take();
      return { type: "object", entries, position };
    }
    for (;;) {
      const key = this.take();
      if (key.kind !== "identifier" && key.kind !== "string")
        throw new ExpressionError("Expected a key in the object", key.position);
      this.expect(":");
      entries.push({ key: key.kind === "string" ? String(key.value) : key.text, value: this.conditional() });
      if (this.isOperator(",")) {
        this.take();
        continue;
      }
      this.expect("}");
      return { type: "object", entries, position };
    }
  }

  private primary(): ExpressionNode {
    const token = this.take();
    switch (token.kind) {
      case "number":
      case "string":
        return { type: "literal", value: token.value, position: token.position };
      case "identifier": {
        if (token.text === "true" || token.text === "false")
          return { type: "literal", value: token.text === "true", position: token.position };
        if (token.text === "null" || token.text === "undefined")
          return { type: "literal", value: null, position: token.position };
        if (this.isOperator("(")) {
          this.take();
          return { type: "call", name: token.text, args: this.nested(() => this.list(")")), position: token.position };
        }
        return { type: "identifier", name: token.text, position: token.position };
      }
      case "operator":
        if (token.text === "(") {
          const inner = this.conditional();
          this.expect(")");
          return inner;
        }
        if (token.text === "[")
          return { type: "array", items: this.nested(() => this.list("]")), position: token.position };
        if (token.text === "{") return this.nested(() => this.objectLiteral(token.position));
        throw new ExpressionError(`Unexpected '${token.text}'`, token.position);
      case "end":
        throw new ExpressionError("The expression ends too early", token.position);
    }
  }
}

/** Parses an expression; throws ExpressionError naming the position of the first problem. */
export function parseExpression(source: string): ExpressionNode {
  if (source.length > MAX_EXPRESSION_LENGTH)
    throw new ExpressionError(`The expression is longer than ${MAX_EXPRESSION_LENGTH} characters`);
  return new Parser(tokenize(source)).parse();
}
