import type { ExpressionNode } from "./ast";
import { ExpressionError } from "./errors";
import { callHelper } from "./functions";
import { parseExpression } from "./parser";
import { compare, deepEqual, isTruthy, looseEqual, requireNumber, toText, typeName } from "./values";

/** Names an expression may use bare, for example `index` in a while condition. */
export type ExpressionScope = Readonly<Record<string, unknown>>;

function member(object: unknown, property: unknown, position: number): unknown {
  if (object === null || object === undefined)
    throw new ExpressionError(`Cannot read '${toText(property)}' of null`, position);
  if (Array.isArray(object) || typeof object === "string") {
    if (property === "length") return object.length;
    if (typeof property !== "number" || !Number.isInteger(property))
      throw new ExpressionError(`Index must be a whole number, got ${typeName(property)}`, position);
    const index = property < 0 ? object.length + property : property;
    return index >= 0 && index < object.length ? object[index] : null;
  }
  if (typeof object === "object") {
    const key = toText(property);
    return Object.hasOwn(object, key) ? ((object as Record<string, unknown>)[key] ?? null) : null;
  }
  throw new ExpressionError(`Cannot read '${toText(property)}' of ${typeName(object)}`, position);
}

function arithmetic(operator: string, left: unknown, right: unknown, position: number): unknown {
  if (operator === "+") {
    if (Array.isArray(left) && Array.isArray(right)) return [...left, ...right];
    if (typeof left === "string" || typeof right === "string") return toText(left) + toText(right);
  }
  const a = requireNumber(left, `'${operator}'`, position);
  const b = requireNumber(right, `'${operator}'`, position);
  switch (operator) {
    case "+":
      return a + b;
    case "-":
      return a - b;
    case "*":
      return a * b;
    default:
      if (b === 0) throw new ExpressionError("Division by zero", position);
      return operator === "/" ? a / b : a % b;
  }
}

function binary(operator: string, left: unknown, right: unknown, position: number): unknown {
  switch (operator) {
    case "==":
      return looseEqual(left, right);
    case "!=":
      return !looseEqual(left, right);
    case "===":
      return typeName(left) === typeName(right) && deepEqual(left, right);
    case "!==":
      return !(typeName(left) === typeName(right) && deepEqual(left, right));
    case "<":
      return compare(left, right, position) < 0;
    case "<=":
      return compare(left, right, position) <= 0;
    case ">":
      return compare(left, right, position) > 0;
    case ">=":
      return compare(left, right, position) >= 0;
    default:
      return arithmetic(operator, left, right, position);
  }
}

export function evaluateNode(node: ExpressionNode, scope: ExpressionScope): unknown {
  switch (node.type) {
    case "literal":
      return node.value;
    case "identifier":
      if (!Object.hasOwn(scope, node.name))
        throw new ExpressionError(
          `Unknown name '${node.name}' (write references as <Block Name.field>, text in quotes)`,
          node.position,
        );
      return scope[node.name] ?? null;
    case "array":
      return node.items.map((item) => evaluateNode(item, scope));
    case "object": {
      const result: Record<string, unknown> = {};
      for (const entry of node.entries) result[entry.key] = evaluateNode(entry.value, scope);
      return result;
    }
    case "member":
      return member(evaluateNode(node.object, scope), evaluateNode(node.property, scope), node.position);
    case "call":
      return callHelper(
        node.name,
        node.args.map((arg) => evaluateNode(arg, scope)),
        node.position,
      );
    case "unary": {
      const operand = evaluateNode(node.operand, scope);
      if (node.operator === "!") return !isTruthy(operand);
      const number = requireNumber(operand, `'${node.operator}'`, node.position);
      return node.operator === "-" ? -number : number;
    }
    case "logical": {
      const left = evaluateNode(node.left, scope);
      if (node.operator === "&&") return isTruthy(left) ? evaluateNode(node.right, scope) : left;
      return isTruthy(left) ? left : evaluateNode(node.right, scope);
    }
    case "binary":
      return binary(node.operator, evaluateNode(node.left, scope), evaluateNode(node.right, scope), node.position);
    case "conditional":
      return isTruthy(evaluateNode(node.test, scope))
        ? evaluateNode(node.consequent, scope)
        : evaluateNode(node.alternate, scope);
  }
}

/** Parses and evaluates an expression whose references were already replaced by literals. */
export function evaluateExpression(source: string, scope: ExpressionScope = {}): unknown {
  return evaluateNode(parseExpression(source), scope);
}

/** Evaluates and applies the language's truthiness (empty text, arrays and objects are false). */
export function evaluateCondition(source: string, scope: ExpressionScope = {}): boolean {
  return isTruthy(evaluateExpression(source, scope));
}
